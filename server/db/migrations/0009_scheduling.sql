CREATE TABLE "reservation_reschedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"reservation_id" integer NOT NULL,
	"old_start_time" timestamp with time zone NOT NULL,
	"new_start_time" timestamp with time zone NOT NULL,
	"old_staff_id" integer NOT NULL,
	"new_staff_id" integer NOT NULL,
	"by" text NOT NULL,
	"staff_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "salon_holidays" (
	"salon_id" integer NOT NULL,
	"holiday_date" date NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	CONSTRAINT "salon_holidays_salon_id_holiday_date_pk" PRIMARY KEY("salon_id","holiday_date")
);
--> statement-breakpoint
CREATE TABLE "schedule_exceptions" (
	"staff_id" integer NOT NULL,
	"salon_id" integer NOT NULL,
	"exception_date" date NOT NULL,
	CONSTRAINT "schedule_exceptions_staff_id_exception_date_pk" PRIMARY KEY("staff_id","exception_date")
);
--> statement-breakpoint
CREATE TABLE "service_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"salon_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"duration_minutes" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_options_price_check" CHECK ("service_options"."price" >= 0),
	CONSTRAINT "service_options_duration_check" CHECK ("service_options"."duration_minutes" between 0 and 180 and "service_options"."duration_minutes" % 5 = 0)
);
--> statement-breakpoint
CREATE TABLE "shift_templates" (
	"staff_id" integer NOT NULL,
	"salon_id" integer NOT NULL,
	"weekday" integer NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	CONSTRAINT "shift_templates_staff_id_weekday_pk" PRIMARY KEY("staff_id","weekday"),
	CONSTRAINT "shift_templates_weekday_check" CHECK ("shift_templates"."weekday" between 0 and 6),
	CONSTRAINT "shift_templates_order_check" CHECK ("shift_templates"."start_time" < "shift_templates"."end_time"),
	CONSTRAINT "shift_templates_grid_check" CHECK (extract(minute from "shift_templates"."start_time") in (0, 30) and extract(minute from "shift_templates"."end_time") in (0, 30))
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "is_nominated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "nomination_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Existing bookings hold exactly their own time (no buffer or rounding existed before this version).
ALTER TABLE "reservations" ADD COLUMN "occupied_until" timestamp with time zone;--> statement-breakpoint
UPDATE "reservations" SET "occupied_until" = "end_time";--> statement-breakpoint
ALTER TABLE "reservations" ALTER COLUMN "occupied_until" SET NOT NULL;--> statement-breakpoint
-- A row inserted without it (an import, a test fixture, the benchmark's bulk load) holds exactly its own time.
CREATE OR REPLACE FUNCTION reservations_default_occupied_until() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.occupied_until IS NULL THEN
    NEW.occupied_until := NEW.end_time;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "reservations_default_occupied_until" BEFORE INSERT ON "reservations"
  FOR EACH ROW EXECUTE FUNCTION reservations_default_occupied_until();--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "slot_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "buffer_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "block_rounding_minutes" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "closed_weekdays" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "is_bookable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "nomination_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "profile" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "picture_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "schedule_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reservation_reschedules" ADD CONSTRAINT "reservation_reschedules_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_reschedules" ADD CONSTRAINT "reservation_reschedules_old_staff_id_staff_users_id_fk" FOREIGN KEY ("old_staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_reschedules" ADD CONSTRAINT "reservation_reschedules_new_staff_id_staff_users_id_fk" FOREIGN KEY ("new_staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_reschedules" ADD CONSTRAINT "reservation_reschedules_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_holidays" ADD CONSTRAINT "salon_holidays_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_options" ADD CONSTRAINT "service_options_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_options" ADD CONSTRAINT "service_options_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shift_templates" ADD CONSTRAINT "shift_templates_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shift_templates" ADD CONSTRAINT "shift_templates_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservation_reschedules_reservation_idx" ON "reservation_reschedules" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "schedule_exceptions_date_idx" ON "schedule_exceptions" USING btree ("salon_id","exception_date");--> statement-breakpoint
CREATE INDEX "service_options_service_idx" ON "service_options" USING btree ("service_id","is_active");--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_occupied_check" CHECK ("reservations"."occupied_until" >= "reservations"."end_time");--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_nomination_fee_check" CHECK ("staff_users"."nomination_fee" >= 0);--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_slot_minutes_check" CHECK ("slot_minutes" in (15, 30, 60));--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_buffer_minutes_check" CHECK ("buffer_minutes" between 0 and 60 and "buffer_minutes" % 5 = 0);--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_block_rounding_check" CHECK ("block_rounding_minutes" in (5, 10, 15, 30, 60));--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_closed_weekdays_check" CHECK ("closed_weekdays" <@ ARRAY[0, 1, 2, 3, 4, 5, 6]);--> statement-breakpoint
-- A day's opening slots are always an exception to the template: whatever inserts them (the schedule screen, a
-- restore, the demo seed, a test fixture) marks the day, so no cell can exist that the templates would ignore.
CREATE OR REPLACE FUNCTION opening_slots_mark_exception() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "schedule_exceptions" ("staff_id", "salon_id", "exception_date")
    VALUES (NEW.staff_id, NEW.salon_id, NEW.slot_date)
    ON CONFLICT DO NOTHING;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "opening_slots_mark_exception" AFTER INSERT ON "opening_slots"
  FOR EACH ROW EXECUTE FUNCTION opening_slots_mark_exception();--> statement-breakpoint
-- Every day set by hand so far stays exactly as it is: it becomes an exception to the (still empty) templates.
INSERT INTO "schedule_exceptions" ("staff_id", "salon_id", "exception_date")
  SELECT DISTINCT "staff_id", "salon_id", "slot_date" FROM "opening_slots";--> statement-breakpoint
-- The rule that makes double booking impossible now covers the time a booking holds (its buffer included), not
-- only the time the customer is served: every way of claiming time (a booking, a nomination, a reschedule) goes
-- through this one constraint.
ALTER TABLE "reservations" DROP CONSTRAINT "reservations_no_overlap";--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_no_overlap"
  EXCLUDE USING gist ("staff_id" WITH =, tstzrange("start_time", "occupied_until", '[)') WITH &&)
  WHERE ("status" IN ('pending', 'confirmed'));
