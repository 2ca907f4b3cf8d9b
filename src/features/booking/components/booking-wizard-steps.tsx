import { Anchor, Box, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, type Dispatch, type RefObject } from 'react';
import type { MenuChoice } from '#src/components/slot-picker/slot-queries';
import type { DateCheck } from '#src/components/slot-picker/use-date-check';
import { MESSAGES } from '#src/shared/messages';
import type { CustomerProfile } from '#src/shared/schemas/auth';
import type { Service } from '#src/shared/schemas/booking';
import { STEP_TITLES, WIZARD_STEPS, type WizardAction, type WizardState } from '../hooks/use-booking-wizard';
import type { CustomerDetails } from '../validation';
import type { ChoiceSummaryProps } from './choice-summary';

/*
 * The steps after the menu are separate chunks: the calendar (Mantine dates) and the form inputs are not needed
 * to show /reserve, and the customer entry has a size budget (tests/e2e/customer-bundle-budget.test.ts). They
 * are fetched as soon as a menu is chosen, while the calendar's data loads.
 */
const loadOptionsStep = () => import('./options-step');
const loadDateStep = () => import('#src/components/slot-picker/date-picker');
const loadTimeStep = () => import('#src/components/slot-picker/time-picker');
const loadDetailsStep = () => import('./details-step');
const loadConfirmStep = () => import('./confirm-step');
const loadWaitlistJoin = () => import('./waitlist-join-entry');
const loadChoiceSummary = () => import('./choice-summary');
const OptionsStep = lazy(() => loadOptionsStep().then((m) => ({ default: m.OptionsStep })));
const DateStep = lazy(() => loadDateStep().then((m) => ({ default: m.SlotDatePicker })));
const SlotTimePicker = lazy(() => loadTimeStep().then((m) => ({ default: m.SlotTimePicker })));
const DetailsStep = lazy(() => loadDetailsStep().then((m) => ({ default: m.DetailsStep })));
export const ConfirmStep = lazy(() => loadConfirmStep().then((m) => ({ default: m.ConfirmStep })));
// キャンセル待ちに登録 under the calendar: a chunk too, fetched with the calendar's.
const WaitlistJoinEntry = lazy(() => loadWaitlistJoin().then((m) => ({ default: m.WaitlistJoinEntry })));
const ChoiceSummary = lazy(() => loadChoiceSummary().then((m) => ({ default: m.ChoiceSummary })));

export function preloadLaterSteps() {
  for (const load of [
    loadOptionsStep,
    loadChoiceSummary,
    loadDateStep,
    loadTimeStep,
    loadWaitlistJoin,
    loadDetailsStep,
    loadConfirmStep,
  ]) {
    load().catch(() => {
      // A failed prefetch is retried by React.lazy when the step is shown (and reported there).
    });
  }
}

/** The step's heading, focused when the step changes: screen readers and keyboards follow the wizard. */
export function useStepHeadingFocus(step: WizardState['step']) {
  const heading = useRef<HTMLHeadingElement>(null);
  const firstStep = useRef(true);
  useEffect(() => {
    // The first render keeps the page's own focus.
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);
  return heading;
}

/** ステップ n / 6, a progress bar, and the step's title. */
export function WizardProgress({
  step,
  headingRef,
}: {
  step: WizardState['step'];
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const stepIndex = WIZARD_STEPS.indexOf(step);
  return (
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
      <Title order={2} size="h3" ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
        {STEP_TITLES[step]}
      </Title>
    </Stack>
  );
}

type WizardDispatch = Dispatch<WizardAction>;

/** Options and 指名; either change makes the calendar's pending day check stale (`onMenuChange`). */
export function WizardOptionsStep({
  service,
  state,
  dispatch,
  onMenuChange,
}: {
  service: Service;
  state: WizardState;
  dispatch: WizardDispatch;
  onMenuChange(): void;
}) {
  return (
    <>
      <OptionsStep
        service={service}
        optionIds={state.optionIds}
        staff={state.staff}
        onToggleOption={(optionId) => {
          onMenuChange();
          dispatch({ type: 'toggleOption', optionId });
        }}
        onChooseStaff={(chosen) => {
          onMenuChange();
          dispatch({ type: 'chooseStaff', staff: chosen });
        }}
        onNext={() => dispatch({ type: 'confirmMenu' })}
      />
      <BackLink label="メニュー一覧に戻る" onClick={() => dispatch({ type: 'back' })} />
    </>
  );
}

/** The calendar, and キャンセル待ち offered for a day found full; the choices so far stay in sight above it. */
export function WizardDateStep(props: {
  service: Service;
  summary: ChoiceSummaryProps;
  choice: MenuChoice;
  date: string | null;
  dateCheck: DateCheck;
  onChooseDate(date: string): void;
  dispatch: WizardDispatch;
}) {
  const { service, choice, dateCheck } = props;
  return (
    <>
      <ChosenSoFar {...props.summary} />
      <Text>
        <Text span fw={700}>
          {service.name}
        </Text>
        の日付をお選びください。
      </Text>
      <DateStep
        choice={choice}
        selectedDate={dateCheck.date ?? props.date}
        checking={dateCheck.checking}
        error={dateCheck.error}
        onChoose={props.onChooseDate}
      />
      <WaitlistJoinEntry
        choice={choice}
        menuName={service.name}
        suggestedDate={dateCheck.error === MESSAGES.noSlotsOnDay ? dateCheck.date : null}
        onBookDay={props.onChooseDate}
      />
      <BackLink label="メニュー選択に戻る" onClick={() => props.dispatch({ type: 'back' })} />
    </>
  );
}

/** The day's free starts, each with its end, under the choices so far. */
export function WizardTimeStep(props: {
  service: Service;
  summary: ChoiceSummaryProps;
  durationMinutes: number;
  choice: MenuChoice;
  date: string;
  state: WizardState;
  dispatch: WizardDispatch;
}) {
  const { dispatch } = props;
  return (
    <>
      <ChosenSoFar {...props.summary} />
      <SlotTimePicker
        choice={props.choice}
        durationMinutes={props.durationMinutes}
        menuName={props.service.name}
        date={props.date}
        selectedTime={props.state.time}
        notice={props.state.timeNotice}
        onChoose={(chosen) => dispatch({ type: 'chooseTime', time: chosen })}
      />
      <BackLink label="日付選択に戻る" onClick={() => dispatch({ type: 'back' })} />
    </>
  );
}

/** The customer's name and contacts: what was entered before, else the signed-in profile's. */
export function WizardDetailsStep({
  details,
  profile,
  dispatch,
}: {
  details: CustomerDetails | null;
  profile: CustomerProfile | null;
  dispatch: WizardDispatch;
}) {
  return (
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
  );
}

/** The summary in its own boundary: the calendar and the times never wait for its chunk. */
function ChosenSoFar(props: ChoiceSummaryProps) {
  return (
    <Suspense fallback={null}>
      <ChoiceSummary {...props} />
    </Suspense>
  );
}

function BackLink({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <Anchor component="button" type="button" onClick={onClick} size="sm" ta="left">
      ← {label}
    </Anchor>
  );
}
