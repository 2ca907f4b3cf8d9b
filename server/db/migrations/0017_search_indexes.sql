-- Customer search without reading every customer (issue 17). pg_trgm indexes "contains" (LIKE '%…%'), but it
-- builds trigrams from letters and digits only, and with the C locale both engines use, kanji and kana are neither:
-- '佐藤' has no trigram at all. So the index is built on a key that spells each character of the folded name and
-- furigana as base-36 digits (ASCII, which trigrams see): a text that contains the query has a key that contains
-- the query's key, and a one-character query still yields a trigram. The key only narrows the candidates;
-- the search checks each of them on the folded text itself, search_text (server/features/customers/customers.repository.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- What a search compares: ASCII letters in lower case (in the C collation whatever the database's, so that the
-- browser's offline search, src/shared/kana.ts searchFold, does exactly the same) and hiragana as katakana.
CREATE FUNCTION customer_search_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN translate(lower(t COLLATE "C"),
    'ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖ',
    'ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲンヴヵヶ');
--> statement-breakpoint
-- Each character's code point in base 36: three digits below 36³ (ASCII, kana, the common kanji), four above. The
-- digits carry no constant leading zero, so the trigrams of a kanji or kana are as distinct as the character. Spaces
-- and line breaks are left out of the key (from the text and the query alike, so a contained query still has a
-- contained key): every name has them, and a trigram every row shares only slows the index down. A key may contain
-- another text's key at a misaligned place or across a space; the check on search_text removes such candidates. The
-- server computes the query's key the same way (server/features/customers/search-key.ts).
CREATE FUNCTION search_trigram_key(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT coalesce(string_agg(
           CASE WHEN cp >= 46656 THEN substr('0123456789abcdefghijklmnopqrstuvwxyz', (cp / 46656) % 36 + 1, 1) ELSE '' END ||
           substr('0123456789abcdefghijklmnopqrstuvwxyz', (cp / 1296) % 36 + 1, 1) ||
           substr('0123456789abcdefghijklmnopqrstuvwxyz', (cp / 36) % 36 + 1, 1) ||
           substr('0123456789abcdefghijklmnopqrstuvwxyz', cp % 36 + 1, 1), '' ORDER BY i), '')
    FROM (SELECT ascii(c) AS cp, i
            FROM string_to_table(translate(t, E' \t\n\r\u3000', ''), NULL) WITH ORDINALITY AS s(c, i)) AS chars;
END;
--> statement-breakpoint
-- The folded name and furigana (the search checks each candidate on it), and its key (what the index reads).
ALTER TABLE "customers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (customer_search_fold("name") || E'\n' || customer_search_fold("furigana")) STORED;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "search_key" text GENERATED ALWAYS AS (search_trigram_key(customer_search_fold("name") || E'\n' || customer_search_fold("furigana"))) STORED;
--> statement-breakpoint
CREATE INDEX "customers_search_key_idx" ON "customers" USING gin ("search_key" gin_trgm_ops);
--> statement-breakpoint
-- E-mail and phone are ASCII: ILIKE '%…%' on the column uses these as they are.
CREATE INDEX "customers_email_trgm_idx" ON "customers" USING gin ("email" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "customers_phone_trgm_idx" ON "customers" USING gin ("phone_number" gin_trgm_ops);
