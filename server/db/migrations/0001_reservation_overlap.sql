-- Double booking is impossible by construction (docs/architecture.md#no-double-booking): no two active reservations of one staff
-- member may overlap in time. Both engines run this: PostgreSQL from its contrib, PGlite from its bundled
-- btree_gist extension (passed on every open).
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_no_overlap"
  EXCLUDE USING gist ("staff_id" WITH =, tstzrange("start_time", "end_time", '[)') WITH &&)
  WHERE ("status" IN ('pending', 'confirmed'));
