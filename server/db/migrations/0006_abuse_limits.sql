CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_counters_expires_idx" ON "rate_limit_counters" USING btree ("expires_at");--> statement-breakpoint
-- A customer cannot hold two active reservations of their own that overlap in time: a double submit (two
-- requests with different Idempotency-Keys, or two tabs) would otherwise book the same start with two staff
-- members. Only bookings the customer made count: staff may deliberately book one customer record twice at once
-- (a parent booking for a child under one phone number). Checked first, so that an upgrade over data that already
-- breaks the rule stops with a message saying what to fix instead of PostgreSQL's bare constraint error; the
-- migration runs in one transaction, so nothing has changed when it stops.
DO $$
DECLARE
  clashes text;
BEGIN
  SELECT string_agg(a.reservation_number::text || ' & ' || b.reservation_number::text, ', ')
    INTO clashes
    FROM "reservations" a
    JOIN "reservations" b
      ON a.customer_id = b.customer_id
     AND a.id < b.id
     AND tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
   WHERE a.status IN ('pending', 'confirmed') AND b.status IN ('pending', 'confirmed')
     AND a.created_by = 'customer' AND b.created_by = 'customer';
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'A customer holds overlapping active reservations they booked themselves: %. Cancel one of each pair (with the previous version of the app), then start this version again.', clashes;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_customer_no_overlap"
  EXCLUDE USING gist ("customer_id" WITH =, tstzrange("start_time", "end_time", '[)') WITH &&)
  WHERE ("status" IN ('pending', 'confirmed') AND "created_by" = 'customer');
