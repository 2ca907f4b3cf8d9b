import { Alert, Stack, Text } from '@mantine/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Suspense, useState, type ReactElement } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import type { MenuChoice } from '#src/components/slot-picker/slot-queries';
import { useDateCheck } from '#src/components/slot-picker/use-date-check';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { useOnline } from '#src/lib/online';
import { usePublicConfig } from '#src/lib/public-config';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import type { Salon } from '#src/shared/schemas/config';
import { salonsQuery, servicesQuery } from '../api/booking-api';
import { useBookingWizard } from '../hooks/use-booking-wizard';
import { useRebook } from '../hooks/use-rebook';
import { useSubmitBooking } from '../hooks/use-submit-booking';
import type { WaitlistPrefillState } from '../hooks/use-waitlist-prefill';
import { chosenOptions, menuTotal } from '#src/lib/menu-total';
import {
  ConfirmStep,
  preloadLaterSteps,
  useStepHeadingFocus,
  WizardDateStep,
  WizardDetailsStep,
  WizardOptionsStep,
  WizardProgress,
  WizardTimeStep,
} from './booking-wizard-steps';
import { ServiceStep } from './service-step';

type MenuLoad = { ready: false; view: ReactElement } | { ready: true; salon: Salon; services: Service[] };

/**
 * The salon and its menu once loaded; until then, or when they cannot be, what shows instead of the steps.
 * `waitingForVisit`: a 前回と同じで予約 whose visit is still being read (its menu opens straight at the calendar).
 */
function loadedMenu(
  salons: UseQueryResult<Salon[]>,
  services: UseQueryResult<Service[]>,
  waitingForVisit: boolean,
): MenuLoad {
  if (salons.isPending || services.isPending) {
    return { ready: false, view: <LoadingState label="メニューを読み込み中…" /> };
  }
  if (waitingForVisit && !services.isError) {
    return { ready: false, view: <LoadingState label="前回のご予約を読み込み中…" /> };
  }
  if (salons.isError || services.isError) {
    const retry = () => {
      void salons.refetch();
      void services.refetch();
    };
    return { ready: false, view: <RetryAlert title={MESSAGES.initialLoadFailed} onRetry={retry} /> };
  }
  const salon = salons.data[0];
  if (!salon) {
    const view = (
      <Alert color="red" role="alert">
        {MESSAGES.salonNotFound}
      </Alert>
    );
    return { ready: false, view };
  }
  if (services.data.length === 0) return { ready: false, view: <Text c="dimmed">{MESSAGES.noServices}</Text> };
  return { ready: true, salon, services: services.data };
}

/**
 * The steps (docs/screens.md#booking-wizard) and the submission with its idempotency key.
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
  const { profile } = useCustomerAuth();
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
  const submission = useSubmitBooking(dispatch);
  const [referenceImages, setReferenceImages] = useState<File[]>([]);
  const heading = useStepHeadingFocus(state.step);

  const menu = loadedMenu(salons, services, Boolean(rebook) && !prefilled && rebooking.status !== 'menu');
  if (!menu.ready) return menu.view;

  const { step, service, optionIds, staff, date, time, details } = state;
  // Options travel in the menu's order, whatever order they were ticked in.
  const options = service ? chosenOptions(service, optionIds) : [];
  const choice: MenuChoice | null = service
    ? { serviceId: service.id, optionIds: options.map((option) => option.id), staffId: staff?.id ?? null }
    : null;
  const total = service ? menuTotal(service, options, staff) : null;

  const chooseDate = (chosen: string) => {
    if (choice) void checkDate(choice, chosen, (free) => dispatch({ type: 'chooseDate', date: free }));
  };
  const submit = () => {
    const draft = { salonId: menu.salon.id, service, options, staff, date, time, details, choice, referenceImages };
    void submission.submit(draft);
  };

  return (
    <Stack gap="md">
      <WizardProgress step={step} headingRef={heading} />

      {step === 'service' && rebooking.status === 'menu' && (
        <Alert color="yellow" role="status">
          {rebooking.notice}
        </Alert>
      )}

      <Suspense fallback={<LoadingState />}>
        {step === 'service' && (
          <ServiceStep
            services={menu.services}
            selectedId={service?.id ?? null}
            onChoose={(chosen) => {
              resetDateCheck();
              dispatch({ type: 'chooseService', service: chosen });
              preloadLaterSteps();
            }}
          />
        )}
        {step === 'options' && service && (
          <WizardOptionsStep service={service} state={state} dispatch={dispatch} onMenuChange={resetDateCheck} />
        )}
        {step === 'date' && service && choice && (
          <WizardDateStep
            service={service}
            summary={{ service, options, staff }}
            choice={choice}
            date={date}
            dateCheck={dateCheck}
            onChooseDate={chooseDate}
            dispatch={dispatch}
          />
        )}
        {step === 'time' && service && total && choice && date && (
          <WizardTimeStep
            service={service}
            summary={{ service, options, staff }}
            durationMinutes={total.minutes}
            choice={choice}
            date={date}
            state={state}
            dispatch={dispatch}
          />
        )}
        {step === 'details' && <WizardDetailsStep details={details} profile={profile} dispatch={dispatch} />}
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
            submitting={submission.submitting}
            online={online}
            error={submission.error}
            onSubmit={submit}
            referenceImages={referenceImages}
            onReferenceImagesChange={setReferenceImages}
            onEdit={() => {
              submission.clearError();
              dispatch({ type: 'edit' });
            }}
          />
        )}
      </Suspense>
    </Stack>
  );
}
