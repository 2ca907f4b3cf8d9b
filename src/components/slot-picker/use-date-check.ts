import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { MESSAGES } from '#src/shared/messages';
import { availabilityQuery, type MenuChoice } from './slot-queries';

export interface DateCheck {
  /** The day being checked or refused (shown selected in the calendar). */
  date: string | null;
  checking: boolean;
  error: string | null;
}

const IDLE: DateCheck = { date: null, checking: false, error: null };

/**
 * A chosen day moves on to its times only when it still has a free start (docs/screens.md#booking-date-step
 * "DATE to TIME"); otherwise the picker stays with a message. A later choice (or `reset`) wins over an answer still
 * on its way, so a slow answer for an earlier day never moves the customer on.
 */
export function useDateCheck() {
  const queryClient = useQueryClient();
  const [check, setCheck] = useState<DateCheck>(IDLE);
  const request = useRef(0);

  const choose = async (choice: MenuChoice, date: string, onFree: (date: string) => void) => {
    const mine = ++request.current;
    setCheck({ date, checking: true, error: null });
    try {
      const slots = await queryClient.fetchQuery(availabilityQuery(choice, date));
      if (mine !== request.current) return;
      if (slots.length === 0) {
        setCheck({ date, checking: false, error: MESSAGES.noSlotsOnDay });
        return;
      }
      setCheck(IDLE);
      onFree(date);
    } catch {
      if (mine === request.current) setCheck({ date, checking: false, error: MESSAGES.slotLoadFailed });
    }
  };

  const reset = () => {
    request.current += 1;
    setCheck(IDLE);
  };

  return { check, choose, reset };
}
