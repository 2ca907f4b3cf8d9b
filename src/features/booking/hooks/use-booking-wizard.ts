import { useReducer } from 'react';
import type { BookableStaff, Service } from '#src/shared/schemas/booking';
import type { CustomerDetails } from '../validation';

/**
 * docs/screens.md#booking-wizard: the steps in this order. 'options' (the service's options and 指名)
 * sits between the menu and the calendar because both change which days and times are free.
 */
export const WIZARD_STEPS = ['service', 'options', 'date', 'time', 'details', 'confirm'] as const;
type WizardStep = (typeof WIZARD_STEPS)[number];

export const STEP_TITLES: Record<WizardStep, string> = {
  service: 'メニューを選ぶ',
  options: 'オプション・指名を選ぶ',
  date: '日付を選ぶ',
  time: '時間を選ぶ',
  details: 'お客様情報の入力',
  confirm: '予約内容の確認',
};

export interface WizardState {
  step: WizardStep;
  service: Service | null;
  /** Ids of the chosen options of `service`. */
  optionIds: number[];
  /** The named staff member (指名), or null for 指名なし. */
  staff: BookableStaff | null;
  date: string | null;
  time: string | null;
  details: CustomerDetails | null;
  /** Shown on the time step after the chosen slot was taken by someone else (409). */
  timeNotice: string | null;
}

export type WizardAction =
  | { type: 'chooseService'; service: Service }
  /** 前回と同じで予約: the menu, options and 指名 of an earlier visit, straight to the calendar. */
  | { type: 'prefill'; service: Service; optionIds: number[]; staff: BookableStaff | null; date?: string }
  | { type: 'toggleOption'; optionId: number }
  | { type: 'chooseStaff'; staff: BookableStaff | null }
  | { type: 'confirmMenu' }
  | { type: 'chooseDate'; date: string }
  | { type: 'chooseTime'; time: string }
  | { type: 'submitDetails'; details: CustomerDetails }
  | { type: 'back' }
  | { type: 'edit' }
  | { type: 'slotTaken'; message: string };

const initialWizardState: WizardState = {
  step: 'service',
  service: null,
  optionIds: [],
  staff: null,
  date: null,
  time: null,
  details: null,
  timeNotice: null,
};

const PREVIOUS: Record<WizardStep, WizardStep> = {
  service: 'service',
  options: 'service',
  date: 'options',
  time: 'date',
  details: 'time',
  confirm: 'details',
};

/**
 * docs/screens.md#booking-wizard: a new service clears its options, the date and the time; a
 * new date clears the time. Options and 指名 change the booking's length and who serves it, so either clears the
 * date and time too. The named staff member is kept across services (a person, not part of a menu).
 */
function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'chooseService':
      return {
        ...state,
        step: 'options',
        service: action.service,
        optionIds: [],
        date: null,
        time: null,
        timeNotice: null,
      };
    case 'prefill':
      return {
        ...initialWizardState,
        // A キャンセル待ち offer names its day: straight to that day's times.
        step: action.date ? 'time' : 'date',
        service: action.service,
        optionIds: action.optionIds,
        staff: action.staff,
        date: action.date ?? null,
      };
    case 'toggleOption':
      return {
        ...state,
        optionIds: state.optionIds.includes(action.optionId)
          ? state.optionIds.filter((id) => id !== action.optionId)
          : [...state.optionIds, action.optionId],
        date: null,
        time: null,
      };
    case 'chooseStaff':
      return { ...state, staff: action.staff, date: null, time: null };
    case 'confirmMenu':
      return { ...state, step: 'date', timeNotice: null };
    case 'chooseDate':
      return { ...state, step: 'time', date: action.date, time: null, timeNotice: null };
    case 'chooseTime':
      return { ...state, step: 'details', time: action.time, timeNotice: null };
    case 'submitDetails':
      return { ...state, step: 'confirm', details: action.details };
    case 'back':
      return { ...state, step: PREVIOUS[state.step], timeNotice: null };
    case 'edit':
      return { ...state, step: 'details' };
    case 'slotTaken':
      return { ...state, step: 'time', time: null, timeNotice: action.message };
  }
}

export function useBookingWizard() {
  return useReducer(wizardReducer, initialWizardState);
}
