import { useQuery } from '@tanstack/react-query';
import { todayLocal } from '#src/lib/device-time';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import { bookableStaffQuery } from '../api/booking-api';
import { waitlistEntryQuery } from '../api/waitlist-api';
import type { RebookPrefill } from './use-rebook';

export type WaitlistPrefillState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'ready'; prefill: RebookPrefill & { date: string } }
  /** The entry is gone (withdrawn, booked, past) or its menu is: the menu step, with this message. */
  | { status: 'menu'; notice: string };

/**
 * /reserve?waitlist=<entry id> (the link of a キャンセル待ち offer, server/outbox/waitlist-offers.ts): reads the entry
 * with the customer's session (someone else's is a 404) and fills in its menu, options, 指名 and day, so the wizard
 * opens on that day's times. Whoever books first gets the start; the wizard's ordinary 409 handling covers the rest.
 */
export function useWaitlistPrefill(
  entryId: number | null,
  services: readonly Service[] | undefined,
): WaitlistPrefillState {
  const enabled = entryId !== null;
  const entry = useQuery({ ...waitlistEntryQuery(entryId ?? 0), enabled, retry: false });
  const staffList = useQuery({ ...bookableStaffQuery, enabled });
  if (!enabled) return { status: 'none' };
  if (entry.isError) return { status: 'menu', notice: MESSAGES.waitlistEntryGone };
  if (entry.isPending || !services || staffList.isPending) return { status: 'loading' };
  const { data } = entry;
  const service = services.find((candidate) => candidate.id === data.service_id);
  if (data.status !== 'waiting' || data.date < todayLocal() || !service) {
    return { status: 'menu', notice: MESSAGES.waitlistEntryGone };
  }
  const offered = new Set(service.options.map((option) => option.id));
  return {
    status: 'ready',
    prefill: {
      service,
      optionIds: data.option_ids.filter((id) => offered.has(id)),
      staff: data.staff_id === null ? null : (staffList.data?.find((member) => member.id === data.staff_id) ?? null),
      date: data.date,
    },
  };
}
