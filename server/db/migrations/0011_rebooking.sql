ALTER TABLE "services" ADD COLUMN "rebook_cycle_days" integer;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_rebook_cycle_check" CHECK ("services"."rebook_cycle_days" is null or "services"."rebook_cycle_days" between 7 and 180);--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "rebook_prompts_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "rebook_prompted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "reservations_rebook_due_idx" ON "reservations" USING btree ("salon_id","start_time") WHERE "reservations"."status" = 'completed' and "reservations"."rebook_prompted_at" is null;
