-- The booking's messages expanded by the outbox worker
-- (docs/decisions/0023-booking-messages-expanded-by-the-worker.md):
-- book_reservation() (migration 0025, every rule unchanged) also queues, in the same transaction, ONE outbox row
-- of kind 'reservation_event' (channel 'event', payload {event: 'created' | 'created_confirmed', reservation_id,
-- reservation: the row as booked}), which the worker expands into the customer's and the staff member's messages
-- (server/outbox/reservation-events.ts). A customer's booking is then one autocommit statement
-- (server/features/reservations/book.ts): the reservation and its outbox row commit together, or neither does.
-- The event row names its reservation in the payload only (reservation_id stays null), so it never holds a
-- reservation against deletion; the worker fails it with a reason when the reservation is gone.
CREATE OR REPLACE FUNCTION book_reservation(
  p_salon_id integer,
  p_customer_id integer,
  -- 指名: the staff member the customer named; null = 指名なし.
  p_staff_id integer,
  p_service_id integer,
  p_service_name text,
  -- The service and its options in yen, as on the menu now; the 指名料 is added here.
  p_menu_price integer,
  p_options jsonb,
  -- The service and its options in minutes (end_time - start_time).
  p_served_minutes integer,
  -- The requested start as an instant (to the minute), and as the salon's local date and the seconds after its
  -- midnight as requested (the caller converts, with the zone's offset it caches: this function needs no zone).
  p_start timestamptz,
  p_local_date date,
  p_local_seconds integer,
  -- The salon-local day of the start as instants [from, to): 指名なし counts each candidate's bookings in it.
  p_day_from timestamptz,
  p_day_to timestamptz,
  -- The app's clock (tests move it): the notice, "in the past" and the upcoming count are measured from it.
  p_now timestamptz,
  p_customer_name text,
  p_customer_furigana text,
  p_customer_email text,
  p_customer_phone text,
  -- Distinct e-mail addresses one customer may book with in 24 hours (BOOKING_EMAIL_ADDRESS_LIMIT); null = no limit.
  p_email_limit integer,
  -- The booking-change counter (server/plugins/booking-limits.ts): its key, limit and window; a null key counts nothing.
  p_counter_key text,
  p_counter_limit integer,
  p_counter_window interval,
  p_idempotency_key text
) RETURNS "reservations" LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  salon "salons"%ROWTYPE;
  customer record;
  counted integer;
  wait_until timestamptz;
  start_minute integer := p_local_seconds / 60;
  -- The 30-minute working cells the customer's time touches: [first_cell, cells_end) in minutes of the local day.
  first_cell integer := (start_minute / 30) * 30;
  cells_end integer := ceil((start_minute + greatest(1, p_served_minutes)) / 30.0)::integer * 30;
  occupied_minutes integer;
  held_until timestamptz;
  fee integer := 0;
  incidents integer;
  known_addresses text[];
  address text := lower(trim(p_customer_email));
  booking_status text := 'confirmed';
  held_for_approval boolean := false;
  candidates integer[];
  candidate integer;
  violated text;
  booked "reservations"%ROWTYPE;
BEGIN
  -- Rule: a customer's bookings and cancellations per window (server/plugins/booking-limits.ts), counted in one
  -- statement so parallel attempts cannot all slip under the limit; an attempt over the limit is not counted. The
  -- count is part of this transaction: book.ts counts a refused booking again on its own after the rollback.
  IF p_counter_key IS NOT NULL THEN
    INSERT INTO "rate_limit_counters" AS c ("key", "count", "last_at", "expires_at")
    VALUES (p_counter_key, 1, p_now, p_now + p_counter_window)
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN c."expires_at" <= p_now THEN 1 ELSE c."count" + 1 END,
      "expires_at" = CASE WHEN c."expires_at" <= p_now THEN p_now + p_counter_window ELSE c."expires_at" END,
      "last_at" = p_now
    WHERE c."expires_at" <= p_now OR c."count" < p_counter_limit
    RETURNING c."count" INTO counted;
    IF counted IS NULL THEN
      SELECT "expires_at" INTO wait_until FROM "rate_limit_counters" WHERE "key" = p_counter_key;
      RAISE EXCEPTION USING ERRCODE = 'BK429', MESSAGE = 'throttled',
        DETAIL = greatest(1, ceil(extract(epoch from (coalesce(wait_until, p_now + p_counter_window) - p_now))))::text;
    END IF;
  END IF;

  -- Rule: one booking per customer at a time. The customer row is locked for the rest of the transaction, so the
  -- limits below, read after the lock, see a concurrent booking of the same customer that committed first.
  SELECT "assigned_staff_id", "line_user_id" INTO customer FROM "customers" WHERE "id" = p_customer_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'BK404', MESSAGE = 'customer_not_found';
  END IF;
  SELECT * INTO STRICT salon FROM "salons" WHERE "id" = p_salon_id;

  -- Rule: a start on the salon's grid (slot_minutes after midnight, whole minutes), and not in the past.
  IF p_local_seconds % (salon."slot_minutes" * 60) <> 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'BK400', MESSAGE = 'off_grid', DETAIL = salon."slot_minutes"::text;
  END IF;
  IF p_start <= p_now THEN
    RAISE EXCEPTION USING ERRCODE = 'BK400', MESSAGE = 'past_start';
  END IF;

  -- Rule: 指名 names a bookable staff member: active, bookable, and with some working time at all (a weekly
  -- template, or a day set by hand from today on), as the staff choice lists them (listBookableStaff,
  -- server/scheduling/working-time.ts).
  IF p_staff_id IS NOT NULL THEN
    SELECT "nomination_fee" INTO fee FROM "staff_users" s
     WHERE s."id" = p_staff_id AND s."salon_id" = p_salon_id AND s."is_active" AND s."is_bookable"
       AND (EXISTS (SELECT 1 FROM "shift_templates" t WHERE t."staff_id" = s."id")
            OR (SELECT max(o."slot_date") FROM "opening_slots" o WHERE o."staff_id" = s."id") >= current_date);
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'BK400', MESSAGE = 'staff_not_bookable';
    END IF;
  END IF;

  -- Rule: the time a booking holds of its staff member is the served time rounded up to the salon's rounding,
  -- plus its buffer (bookingLength, src/shared/slots.ts); the staff exclusion constraint is on [start, held_until).
  occupied_minutes := ceil(p_served_minutes::numeric / greatest(1, salon."block_rounding_minutes"))::integer
    * greatest(1, salon."block_rounding_minutes") + salon."buffer_minutes";
  held_until := p_start + make_interval(mins => occupied_minutes);

  -- The candidates' rows are locked FOR KEY SHARE (the lock the insert's foreign key takes anyway) before their
  -- working time is read: a schedule change locks them FOR UPDATE (server/features/schedule/schedule-change.ts),
  -- so it either waits for this booking and then sees it, or committed first and the statements below, each on a
  -- fresh snapshot, read the changed working time.
  PERFORM 1 FROM "staff_users"
   WHERE "salon_id" = p_salon_id AND "is_active" AND "is_bookable" AND (p_staff_id IS NULL OR "id" = p_staff_id)
   ORDER BY "id" FOR KEY SHARE;

  -- Rule: the minimum notice. A start at least min_notice_minutes (and at least a second) after now, to the second
  -- (noticeCutoff and earliestStartOn, server/features/booking/day-plans.ts, offer the same starts).
  IF p_start < date_trunc('second', p_now + make_interval(secs => greatest(salon."min_notice_minutes" * 60, 1))) THEN
    RAISE EXCEPTION USING ERRCODE = 'BK409', MESSAGE = 'slot_unavailable';
  END IF;

  -- The candidates, in the order they are tried, read before the customer's limits are checked (a time nobody
  -- can take is refused as such first): book_reservation_candidates() above.
  candidates := book_reservation_candidates(p_salon_id, p_staff_id, customer."assigned_staff_id",
    salon."closed_weekdays", p_local_date, first_cell, cells_end, p_start, held_until, p_day_from, p_day_to);
  IF cardinality(candidates) = 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'BK409', MESSAGE = 'slot_unavailable';
  END IF;

  -- Rule: the customer's limits, read under the customer's lock. An e-mail address that would be the customer's
  -- (limit + 1)th distinct one in 24 hours on the database clock (server/plugins/booking-limits.ts says why), and
  -- the number of upcoming active bookings (max_upcoming_per_customer).
  IF p_email_limit IS NOT NULL AND address <> '' THEN
    SELECT coalesce(array_agg(DISTINCT lower(trim(r."customer_email"))), '{}') INTO known_addresses
      FROM "reservations" r
     WHERE r."customer_id" = p_customer_id AND r."created_by" = 'customer' AND r."customer_email" <> ''
       AND r."created_at" > now() - interval '24 hours';
    IF NOT address = ANY (known_addresses) AND cardinality(known_addresses) >= p_email_limit THEN
      RAISE EXCEPTION USING ERRCODE = 'BK400', MESSAGE = 'email_address_limit', DETAIL = p_email_limit::text;
    END IF;
  END IF;
  IF (SELECT count(*) FROM "reservations" r
       WHERE r."customer_id" = p_customer_id AND r."status" IN ('pending', 'confirmed') AND r."start_time" > p_now)
     >= salon."max_upcoming_per_customer" THEN
    RAISE EXCEPTION USING ERRCODE = 'BK409', MESSAGE = 'reservation_limit',
      DETAIL = salon."max_upcoming_per_customer"::text;
  END IF;

  -- Rule: the approval rule (server/scheduling/approval-rule.ts). Pending unless the salon confirms online bookings
  -- at once; then pending and flagged when the customer's 無断欠席 and 直前キャンセル reach the salon's threshold
  -- (counted as server/db/incidents.ts counts them), else confirmed.
  IF NOT salon."auto_confirm_online_bookings" THEN
    booking_status := 'pending';
  ELSIF salon."approval_after_incidents" IS NOT NULL THEN
    SELECT count(*) FILTER (WHERE r."status" = 'no_show') + count(*) FILTER (WHERE r."cancelled_late")
      INTO incidents FROM "reservations" r
     WHERE r."customer_id" = p_customer_id AND (r."status" = 'no_show' OR r."cancelled_late");
    IF incidents >= salon."approval_after_incidents" THEN
      booking_status := 'pending';
      held_for_approval := true;
    END IF;
  END IF;

  FOREACH candidate IN ARRAY candidates LOOP
    -- The insert, in a subtransaction: the exclusion constraints are the final guard. Another booking that took
    -- this candidate's time since the read above (23P01 on reservations_no_overlap) moves on to the next
    -- candidate; an own booking of the customer at that time (reservations_customer_no_overlap) is a refusal,
    -- which another staff member would not help.
    BEGIN
      INSERT INTO "reservations" (
        "salon_id", "staff_id", "customer_id", "service_id", "start_time", "end_time", "occupied_until", "status",
        "service_name", "price", "duration_minutes", "options", "is_nominated", "nomination_fee", "customer_name",
        "customer_furigana", "customer_email", "customer_phone", "created_by", "needs_approval", "idempotency_key")
      VALUES (
        p_salon_id, candidate, p_customer_id, p_service_id, p_start,
        p_start + make_interval(mins => p_served_minutes), held_until, booking_status,
        -- Rule: 指名 adds the named staff member's 指名料 to the price (the snapshot keeps both).
        p_service_name, p_menu_price + fee, p_served_minutes, p_options, p_staff_id IS NOT NULL, fee,
        p_customer_name, p_customer_furigana, p_customer_email, p_customer_phone, 'customer', held_for_approval,
        p_idempotency_key)
      RETURNING * INTO booked;
    EXCEPTION WHEN exclusion_violation THEN
      GET STACKED DIAGNOSTICS violated = CONSTRAINT_NAME;
      IF violated = 'reservations_customer_no_overlap' THEN
        RAISE EXCEPTION USING ERRCODE = 'BK409', MESSAGE = 'customer_overlap';
      END IF;
      CONTINUE;
    END;

    -- The details entered become the customer's profile, so the next booking starts filled in; a customer without
    -- a staff member of their own is from now on looked after by this one.
    UPDATE "customers"
       SET "name" = p_customer_name, "furigana" = p_customer_furigana, "email" = p_customer_email,
           "phone_number" = p_customer_phone,
           "assigned_staff_id" = coalesce("assigned_staff_id", candidate), "updated_at" = now()
     WHERE "id" = p_customer_id;
    -- The booking's messages, as one event for the outbox worker to expand (server/outbox/reservation-events.ts):
    -- confirmed at once (the approval rule above), the customer hears the confirmation, never the acceptance that
    -- promises one later. The row as booked goes with it: the messages tell the booking as it was made, even when
    -- staff move it before the worker gets to them (the move's own messages tell the change). Due at once whatever
    -- the worker's clock (the epoch, as server/outbox/outbox.ts queues).
    INSERT INTO "notifications_outbox" ("salon_id", "channel", "kind", "recipient", "payload", "next_attempt_at")
    VALUES (p_salon_id, 'event', 'reservation_event', 'reservation:' || booked."id",
      jsonb_build_object('event', CASE WHEN booked."status" = 'confirmed' THEN 'created_confirmed' ELSE 'created' END,
        'reservation_id', booked."id", 'reservation', to_jsonb(booked)),
      'epoch');
    RETURN booked;
  END LOOP;

  -- Every candidate's time was taken by bookings that committed after the candidates were read.
  RAISE EXCEPTION USING ERRCODE = 'BK409', MESSAGE = 'slot_unavailable';
END $$;
