-- new_reservation_code() (migration 0008) draws a code until no reservation holds it, asking by the code alone:
-- the unique index leads with salon_id, so every booking read the whole table (a sequential scan that grows with
-- history; found by the benchmark's bulk load, issue 17). An index on the code alone answers it at once.
CREATE INDEX "reservations_code_idx" ON "reservations" USING btree ("reservation_code");
