-- The LINE budget of a batch in one call (server/outbox/line-budget.ts, reserveBatchPushes): what was a transaction
-- of two statements (BEGIN, the counter locked and read, the rows marked and the counter raised, COMMIT: four round
-- trips per batch of the outbox worker) is this function, one autocommit statement with the same rules. The month's
-- counter row is locked (created at 0) and read with the salon's limit (0 = none) and which of the rows are still
-- this claim's (their attempt count as claimed) and not counted yet; those are counted in their order while they fit,
-- and after the first that does not, none; the counted rows are marked with the month and the counter raised by their
-- sum. A row that is no longer the claim's, or was counted before, is allowed and not counted again. Returns the ids
-- refused (the month's budget does not allow them); they stay unmarked.
CREATE OR REPLACE FUNCTION reserve_line_pushes(
  p_salon_id integer,
  p_month text,
  p_ids bigint[],
  p_attempts integer[],
  -- What each row costs: 1 per push, 1 per recipient of a multicast, an event's pushes (event-delivery.ts).
  p_costs integer[]
) RETURNS bigint[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_pushes integer;
  v_limit integer;
  v_ours bigint[];
  v_fits boolean := true;
  v_taken bigint[] := '{}';
  v_refused bigint[] := '{}';
  i integer;
BEGIN
  INSERT INTO "line_push_counts" AS c ("salon_id", "month", "pushes") VALUES (p_salon_id, p_month, 0)
  ON CONFLICT ("salon_id", "month") DO UPDATE SET "pushes" = c."pushes"
  RETURNING c."pushes" INTO v_pushes;
  SELECT coalesce(s."line_monthly_push_limit", 0) INTO v_limit FROM "salons" s WHERE s."id" = p_salon_id;
  v_limit := coalesce(v_limit, 0);
  SELECT coalesce(array_agg(o."id"), '{}') INTO v_ours
    FROM "notifications_outbox" o
    JOIN unnest(p_ids, p_attempts) AS r(id, attempts) ON o."id" = r.id AND o."attempts" = r.attempts
   WHERE o."line_push_month" IS NULL;
  FOR i IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
    CONTINUE WHEN NOT (p_ids[i] = ANY (v_ours));
    v_fits := v_fits AND (v_limit = 0 OR v_pushes + p_costs[i] <= v_limit);
    IF v_fits THEN
      v_pushes := v_pushes + p_costs[i];
      v_taken := v_taken || p_ids[i];
    ELSE
      v_refused := v_refused || p_ids[i];
    END IF;
  END LOOP;
  IF cardinality(v_taken) > 0 THEN
    UPDATE "notifications_outbox" SET "line_push_month" = p_month
     WHERE "id" = ANY (v_taken) AND "line_push_month" IS NULL;
    UPDATE "line_push_counts" SET "pushes" = v_pushes WHERE "salon_id" = p_salon_id AND "month" = p_month;
  END IF;
  RETURN v_refused;
END $$;
