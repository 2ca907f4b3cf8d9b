-- A short reservation code a customer can read out on the phone and staff can search for: 8 characters from an
-- alphabet without the look-alikes 0/O, 1/I/L. Drawn by the database (so every insert path gets one), retried
-- until it is not already in use; the unique index per salon is the final word.
CREATE OR REPLACE FUNCTION new_reservation_code() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  code text;
BEGIN
  LOOP
    code := '';
    FOR i IN 1..8 LOOP
      code := code || substr(alphabet, 1 + floor(random() * length(alphabet))::int, 1);
    END LOOP;
    EXIT WHEN NOT EXISTS (SELECT 1 FROM "reservations" WHERE "reservation_code" = code);
  END LOOP;
  RETURN code;
END $$;
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "reservation_code" text;--> statement-breakpoint
-- Backfill: one code per existing row, drawn again for any row that drew a code an earlier row of its salon holds.
DO $$
BEGIN
  UPDATE "reservations" SET "reservation_code" = new_reservation_code();
  LOOP
    UPDATE "reservations" r SET "reservation_code" = new_reservation_code()
     WHERE EXISTS (
       SELECT 1 FROM "reservations" o
        WHERE o.salon_id = r.salon_id AND o.reservation_code = r.reservation_code AND o.id < r.id
     );
    EXIT WHEN NOT FOUND;
  END LOOP;
END $$;
--> statement-breakpoint
ALTER TABLE "reservations" ALTER COLUMN "reservation_code" SET DEFAULT new_reservation_code();--> statement-breakpoint
ALTER TABLE "reservations" ALTER COLUMN "reservation_code" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_salon_code_key" ON "reservations" USING btree ("salon_id","reservation_code");--> statement-breakpoint
-- The secret of the link in the customer's e-mails: whoever holds the e-mail may read that one reservation without
-- signing in (a front-desk customer has no LINE account linked to it). 122 random bits; a volatile default, so
-- existing rows get one each.
ALTER TABLE "reservations" ADD COLUMN "link_secret" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;
