import { Alert, Anchor, Box, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { newIdempotencyKey } from '#src/lib/idempotency-key';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { useOnline } from '#src/lib/online';
import { usePublicConfig } from '#src/lib/public-config';
import { customerSession, hasTokens } from '#src/lib/token-session';
import { MESSAGES } from '#src/shared/messages';
import type { CreateReservationRequest } from '#src/shared/schemas/reservations';
import { SlotTimePicker } from '#src/components/slot-picker/time-picker';
import type { MenuChoice } from '#src/components/slot-picker/slot-queries';
import { useDateCheck } from '#src/components/slot-picker/use-date-check';
import { createReservation, salonsQuery, servicesQuery } from '../api/booking-api';
import { chosenOptions, menuTotal } from '../menu-total';
import { bookingKeys, reservationKeys } from '#src/lib/query-keys';
import { STEP_TITLES, useBookingWizard, WIZARD_STEPS } from '../hooks/use-booking-wizard';
import { useRebook } from '../hooks/use-rebook';
import type { WaitlistPrefillState } from '../hooks/use-waitlist-prefill';
import { ServiceStep } from './service-step';
import { paths } from '#src/lib/paths';

/*
 * The steps after the menu are separate chunks: the calendar (Mantine dates) and the form inputs are not needed
 * to show /reserve, and the customer entry has a size budget (tests/e2e/customer-bundle-budget.test.ts). They
 * are fetched as soon as a menu is chosen, while the calendar's data loads.
 */
const loadOptionsStep = () => import('./options-step');
const loadDateStep = () => import('#src/components/slot-picker/date-picker');
const loadDetailsStep = () => import('./details-step');
const loadConfirmStep = () => import('./confirm-step');
const loadWaitlistJoin = () => import('./waitlist-join-entry');
const OptionsStep = lazy(() => loadOptionsStep().then((m) => ({ default: m.OptionsStep })));
const DateStep = lazy(() => loadDateStep().then((m) => ({ default: m.SlotDatePicker })));
const DetailsStep = lazy(() => loadDetailsStep().then((m) => ({ default: m.DetailsStep })));
const ConfirmStep = lazy(() => loadConfirmStep().then((m) => ({ default: m.ConfirmStep })));
// キャンセル待ちに登録 under the calendar: a chunk too, fetched with the calendar's.
const WaitlistJoinEntry = lazy(() => loadWaitlistJoin().then((m) => ({ default: m.WaitlistJoinEntry })));

function preloadLaterSteps() {
  for (const load of [loadOptionsStep, loadDateStep, loadWaitlistJoin, loadDetailsStep, loadConfirmStep]) {
    load().catch(() => {
      // A failed prefetch is retried by React.lazy when the step is shown (and reported there).
    });
  }
}

/**
 * The steps (docs/architecture.md#screens-and-texts wizard flow) and the submission with its idempotency key.
 * `rebook` (a reservation number, /reserve?rebook=…) opens it at the calendar with that visit's menu, options and
 * 指名 (前回と同じで予約), or at the menu with a short message when that cannot be.
 */
export function BookingWizard({
  rebook = null,
  preset,
}: {
  rebook?: string | null;
  /** Choices read elsewhere (a キャンセル待ち offer, waitlist-wizard.tsx): its menu, straight to its day's times. */
  preset?: Extract<WaitlistPrefillState, { status: 'ready' | 'menu' }>;
} = {}) {
  const { profile, logout } = useCustomerAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const online = useOnline();
  const config = usePublicConfig();
  const salons = useQuery(salonsQuery);
  const services = useQuery(servicesQuery);
  const [state, dispatch] = useBookingWizard();
  const rebooked = useRebook(rebook, services.data);
  const rebooking = preset ?? rebooked;
  // Filled in once: going back to the menu afterwards is the customer's own choice.
  const [prefilled, setPrefilled] = useState(false);
  if (!prefilled && (rebooking.status === 'ready' || rebooking.status === 'menu')) {
    // Set while rendering (React's pattern for state that follows loaded data): the calendar shows at once,
    // without a render of the menu step in between.
    setPrefilled(true);
    if (rebooking.status === 'ready') dispatch({ type: 'prefill', ...rebooking.prefill });
  }
  const { check: dateCheck, choose: checkDate, reset: resetDateCheck } = useDateCheck();
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [referenceImages, setReferenceImages] = useState<File[]>([]);
  // A ref, not state: two clicks in one frame both see "not sending" in state.
  const sending = useRef(false);
  const idempotency = useRef<{ payload: string; key: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstStep = useRef(true);

  useEffect(() => {
    // Screen readers and keyboards follow the step change; the first render keeps the page's own focus.
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    heading.current?.focus();
  }, [state.step]);

  if (salons.isPending || services.isPending) return <LoadingState label="メニューを読み込み中…" />;
  if (rebook && !prefilled && !services.isError && rebooking.status !== 'menu') {
    return <LoadingState label="前回のご予約を読み込み中…" />;
  }
  if (salons.isError || services.isError) {
    return (
      <RetryAlert
        title={MESSAGES.initialLoadFailed}
        onRetry={() => {
          void salons.refetch();
          void services.refetch();
        }}
      />
    );
  }
  const salon = salons.data[0];
  if (!salon) {
    return (
      <Alert color="red" role="alert">
        {MESSAGES.salonNotFound}
      </Alert>
    );
  }
  if (services.data.length === 0) return <Text c="dimmed">{MESSAGES.noServices}</Text>;

  const { step, service, optionIds, staff, date, time, details } = state;
  const stepIndex = WIZARD_STEPS.indexOf(step);
  // Options travel in the menu's order, whatever order they were ticked in.
  const options = service ? chosenOptions(service, optionIds) : [];
  const choice: MenuChoice | null = service
    ? { serviceId: service.id, optionIds: options.map((option) => option.id), staffId: staff?.id ?? null }
    : null;
  const total = service ? menuTotal(service, options, staff) : null;

  const chooseDate = (chosen: string) => {
    if (choice) void checkDate(choice, chosen, (free) => dispatch({ type: 'chooseDate', date: free }));
  };

  const submit = async () => {
    if (sending.current) return;
    setSubmitError(null);
    // docs/architecture.md#screens-and-texts: time, date, name, e-mail, salon and service are needed.
    if (!salon || !service || !date || !time || !details?.name || !details.email) {
      setSubmitError(MESSAGES.requiredMissing);
      return;
    }
    const payload: CreateReservationRequest = {
      salon: salon.id,
      service: service.id,
      // 指名なし sends no staff_id: the salon assigns whoever is free.
      ...(staff ? { staff_id: staff.id } : {}),
      option_ids: options.map((option) => option.id),
      start_time: `${date}T${time}:00`,
      customer_name: details.name,
      customer_furigana: details.furigana,
      customer_email: details.email,
      customer_phone: details.phone,
    };
    const serialized = JSON.stringify(payload);
    if (idempotency.current?.payload !== serialized) {
      idempotency.current = { payload: serialized, key: newIdempotencyKey() };
    }
    sending.current = true;
    setSubmitting(true);
    let leaving = false;
    try {
      const reservation = await createReservation(payload, idempotency.current.key);
      void queryClient.invalidateQueries({ queryKey: [...bookingKeys.all, 'bookable-dates'] });
      // The completion page shows this reservation without asking again; the list is out of date.
      queryClient.setQueryData(reservationKeys.detail(reservation.reservation_number, 'customer'), reservation);
      void queryClient.invalidateQueries({ queryKey: reservationKeys.mine() });
      // The optional reference images go after the booking, which stands whatever becomes of them.
      // Loaded on demand: most bookings have none, and /reserve's first load has a size budget.
      const images = referenceImages.length
        ? await import('#src/components/karte/reference-images-api').then(({ sendReferenceImages }) =>
            sendReferenceImages(reservation.reservation_number, referenceImages),
          )
        : undefined;
      leaving = true;
      void navigate(paths.reservationComplete(reservation.reservation_number), { state: { referenceImages: images } });
    } catch (error) {
      if (isApiError(error, 409) && error.code === 'slot_unavailable') {
        // Someone took the slot: back to the times, loaded again (not the cached list that still offers it).
        if (choice) queryClient.removeQueries({ queryKey: bookingKeys.availability(choice, date) });
        dispatch({ type: 'slotTaken', message: errorDetail(error, MESSAGES.slotUnavailable) });
      } else if (isApiError(error, 401)) {
        // A refused refresh has already ended the session (and gone to /login); any other 401 ends it here.
        if (hasTokens(customerSession)) logout(MESSAGES.customerSessionExpired);
      } else {
        const detail = errorDetail(error, MESSAGES.serverError);
        setSubmitError(MESSAGES.reservationCreateFailed(detail));
      }
    } finally {
      // Booked, the wizard stays sending until the completion page (a lazy route) replaces it: a press meanwhile
      // sends nothing more, where it used to send the same booking again (answered from its Idempotency-Key).
      if (!leaving) {
        sending.current = false;
        setSubmitting(false);
      }
    }
  };

  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Text size="sm" c="dimmed">
          ステップ {stepIndex + 1} / {WIZARD_STEPS.length}
        </Text>
        <Box h={6} bg="var(--mantine-color-gray-2)" bdrs="xl" aria-hidden>
          <Box
            h="100%"
            w={`${((stepIndex + 1) / WIZARD_STEPS.length) * 100}%`}
            bg="var(--mantine-primary-color-filled)"
            bdrs="xl"
          />
        </Box>
        <Title order={2} size="h3" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
          {STEP_TITLES[step]}
        </Title>
      </Stack>

      {step === 'service' && rebooking.status === 'menu' && (
        <Alert color="yellow" role="status">
          {rebooking.notice}
        </Alert>
      )}

      <Suspense fallback={<LoadingState />}>
        {step === 'service' && (
          <ServiceStep
            services={services.data}
            selectedId={service?.id ?? null}
            onChoose={(chosen) => {
              resetDateCheck();
              dispatch({ type: 'chooseService', service: chosen });
              preloadLaterSteps();
            }}
          />
        )}

        {step === 'options' && service && (
          <>
            <OptionsStep
              service={service}
              optionIds={optionIds}
              staff={staff}
              onToggleOption={(optionId) => {
                resetDateCheck();
                dispatch({ type: 'toggleOption', optionId });
              }}
              onChooseStaff={(chosen) => {
                resetDateCheck();
                dispatch({ type: 'chooseStaff', staff: chosen });
              }}
              onNext={() => dispatch({ type: 'confirmMenu' })}
            />
            <BackLink label="メニュー一覧に戻る" onClick={() => dispatch({ type: 'back' })} />
          </>
        )}

        {step === 'date' && service && choice && (
          <>
            <Text>
              <Text span fw={700}>
                {service.name}
              </Text>
              の日付をお選びください。
            </Text>
            <DateStep
              choice={choice}
              selectedDate={dateCheck.date ?? date}
              checking={dateCheck.checking}
              error={dateCheck.error}
              onChoose={chooseDate}
            />
            <WaitlistJoinEntry
              choice={choice}
              menuName={service.name}
              suggestedDate={dateCheck.error === MESSAGES.noSlotsOnDay ? dateCheck.date : null}
            />
            <BackLink label="メニュー選択に戻る" onClick={() => dispatch({ type: 'back' })} />
          </>
        )}

        {step === 'time' && service && choice && date && (
          <>
            <SlotTimePicker
              choice={choice}
              menuName={service.name}
              date={date}
              selectedTime={time}
              notice={state.timeNotice}
              onChoose={(chosen) => dispatch({ type: 'chooseTime', time: chosen })}
            />
            <BackLink label="日付選択に戻る" onClick={() => dispatch({ type: 'back' })} />
          </>
        )}

        {step === 'details' && (
          <>
            <DetailsStep
              initial={
                details ?? {
                  name: profile?.name ?? '',
                  furigana: profile?.furigana ?? '',
                  email: profile?.email ?? '',
                  phone: profile?.phone_number ?? '',
                }
              }
              onSubmit={(entered) => dispatch({ type: 'submitDetails', details: entered })}
            />
            <BackLink label="時間選択に戻る" onClick={() => dispatch({ type: 'back' })} />
          </>
        )}

        {step === 'confirm' && service && total && date && time && details && (
          <ConfirmStep
            service={service}
            options={options}
            staff={staff}
            total={total}
            date={date}
            time={time}
            details={details}
            deadlineDays={config.data?.settings?.cancellation_deadline_days}
            submitting={submitting}
            online={online}
            error={submitError}
            onSubmit={() => void submit()}
            referenceImages={referenceImages}
            onReferenceImagesChange={setReferenceImages}
            onEdit={() => {
              setSubmitError(null);
              dispatch({ type: 'edit' });
            }}
          />
        )}
      </Suspense>
    </Stack>
  );
}

function BackLink({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <Anchor component="button" type="button" onClick={onClick} size="sm" ta="left">
      ← {label}
    </Anchor>
  );
}
