-- Customer search from a table of name suffixes (issue 17), instead of migration 0017's trigram key. "The folded
-- name or furigana contains q" is exactly "one of their suffixes starts with q", which a btree answers as a range:
-- reading only the matches' index entries, in id order, so a search counts its matches without visiting their
-- rows and reads the customers of its page alone. The trigram key read thousands of candidates' rows per search.
-- Suffixes are cut at 100 characters, the longest search text (src/shared/schemas/customers.ts), so that a long
-- name stays well inside a btree entry; a suffix cut there still starts with every text a search can send.
CREATE TABLE "customer_name_suffixes" (
	"salon_id" integer NOT NULL,
	"suffix" text COLLATE "C" NOT NULL,
	"customer_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_name_suffixes" ADD CONSTRAINT "customer_name_suffixes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "customer_name_suffixes_prefix_idx" ON "customer_name_suffixes" USING btree ("salon_id", "suffix") INCLUDE ("customer_id");
--> statement-breakpoint
CREATE INDEX "customer_name_suffixes_customer_idx" ON "customer_name_suffixes" USING btree ("customer_id");
--> statement-breakpoint
-- The folded name and furigana (customer_search_fold, migration 0017) apart: a search never spans the two.
CREATE FUNCTION customer_name_suffix_rows(p_customer integer, p_salon integer, p_name text, p_furigana text)
  RETURNS TABLE (salon_id integer, suffix text, customer_id integer) LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT DISTINCT p_salon, substr(line, i, 100), p_customer
    FROM unnest(ARRAY[customer_search_fold(p_name), customer_search_fold(p_furigana)]) AS line,
         generate_series(1, char_length(line)) AS i;
END;
--> statement-breakpoint
CREATE FUNCTION customer_name_suffixes_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.name = OLD.name AND NEW.furigana = OLD.furigana AND NEW.salon_id = OLD.salon_id THEN
      RETURN NULL;
    END IF;
    DELETE FROM customer_name_suffixes WHERE customer_id = OLD.id;
  END IF;
  INSERT INTO customer_name_suffixes (salon_id, suffix, customer_id)
    SELECT * FROM customer_name_suffix_rows(NEW.id, NEW.salon_id, NEW.name, NEW.furigana);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "customer_name_suffixes_write" AFTER INSERT OR UPDATE OF "name", "furigana", "salon_id" ON "customers"
  FOR EACH ROW EXECUTE FUNCTION customer_name_suffixes_write();
--> statement-breakpoint
INSERT INTO "customer_name_suffixes" ("salon_id", "suffix", "customer_id")
  SELECT s.* FROM "customers" c, customer_name_suffix_rows(c.id, c.salon_id, c.name, c.furigana) s;
--> statement-breakpoint
DROP INDEX "customers_search_key_idx";
--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "search_key";
--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "search_text";
--> statement-breakpoint
DROP FUNCTION search_trigram_key(text);
