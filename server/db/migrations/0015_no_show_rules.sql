ALTER TABLE "salons" ADD COLUMN "auto_confirm_online_bookings" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "approval_after_incidents" integer DEFAULT 2;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "late_cancel_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_approval_after_incidents_check" CHECK ("approval_after_incidents" is null or "approval_after_incidents" between 1 and 10);--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_late_cancel_hours_check" CHECK ("late_cancel_hours" between 1 and 168);--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "cancelled_late" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "needs_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "reservations_customer_incidents_idx" ON "reservations" USING btree ("customer_id") WHERE "reservations"."status" = 'no_show' or "reservations"."cancelled_late";
