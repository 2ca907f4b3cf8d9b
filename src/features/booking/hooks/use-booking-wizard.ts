import { useReducer } from 'react';
import type { Service } from '#src/shared/schemas/booking';
import type { CustomerDetails } from '../validation';

/** docs/architecture.md#screens-and-texts wizard: five steps in this order. */
export const WIZARD_STEPS = ['service', 'date', 'time', 'details', 'confirm'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export const STEP_TITLES: Record<WizardStep, string> = {
  service: 'メニューを選ぶ',
  date: '日付を選ぶ',
  time: '時間を選ぶ',
  details: 'お客様情報の入力',
  confirm: '予約内容の確認',
};

export interface WizardState {
  step: WizardStep;
  service: Service | null;
  date: string | null;
  time: string | null;
  details: CustomerDetails | null;
  /** Shown on the time step after the chosen slot was taken by someone else (409). */
  timeNotice: string | null;
}

export type WizardAction =
  | { type: 'chooseService'; service: Service }
  | { type: 'chooseDate'; date: string }
  | { type: 'chooseTime'; time: string }
  | { type: 'submitDetails'; details: CustomerDetails }
  | { type: 'back' }
  | { type: 'edit' }
  | { type: 'slotTaken'; message: string };

export const initialWizardState: WizardState = {
  step: 'service',
  service: null,
  date: null,
  time: null,
  details: null,
  timeNotice: null,
};

const PREVIOUS: Record<WizardStep, WizardStep> = {
  service: 'service',
  date: 'service',
  time: 'date',
  details: 'time',
  confirm: 'details',
};

/** docs/architecture.md#screens-and-texts "Wizard flow": a new service clears date and time; a new date clears the time. */
export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'chooseService':
      return { ...state, step: 'date', service: action.service, date: null, time: null, timeNotice: null };
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
