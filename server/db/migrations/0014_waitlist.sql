CREATE TABLE "waitlist_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"salon_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	"option_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"staff_id" integer,
	"date" date NOT NULL,
	"time_from" time,
	"time_to" time,
	"status" text DEFAULT 'waiting' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entries_status_check" CHECK ("waitlist_entries"."status" in ('waiting','booked','withdrawn','expired')),
	CONSTRAINT "waitlist_entries_window_check" CHECK ("waitlist_entries"."time_from" is null or "waitlist_entries"."time_to" is null or "waitlist_entries"."time_from" < "waitlist_entries"."time_to")
);
--> statement-breakpoint
CREATE TABLE "waitlist_offers" (
	"id" serial PRIMARY KEY NOT NULL,
	"entry_id" integer NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"staff_id" integer NOT NULL,
	"offered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_waiting_key" ON "waitlist_entries" USING btree ("customer_id","service_id","date",coalesce("staff_id", 0)) WHERE "waitlist_entries"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "waitlist_entries_date_idx" ON "waitlist_entries" USING btree ("salon_id","date") WHERE "waitlist_entries"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "waitlist_entries_salon_date_idx" ON "waitlist_entries" USING btree ("salon_id","date","created_at");--> statement-breakpoint
CREATE INDEX "waitlist_entries_customer_idx" ON "waitlist_entries" USING btree ("customer_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_entry_start_key" ON "waitlist_offers" USING btree ("entry_id","start_time");
