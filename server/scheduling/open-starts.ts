/**
 * The starts bookable now on a day for a menu choice, per staff member, read through the availability service (the
 * one place that decides them, server/features/booking/availability.service.ts). For code outside the features
 * that needs them without importing a feature: the outbox's キャンセル待ち offers (server/outbox/waitlist-offers.ts)
 * get this from server/app-context.ts.
 */
import type { BookingLength } from '#src/shared/slots';
import { resolveMenuChoice, type ServiceWithOptions } from './menu';

interface OpenStartsQuery {
  date: string;
  serviceId: number;
  optionIds: readonly number[];
  /** 指名; null = anyone. */
  staffId: number | null;
}

/** `HH:mm` starts per staff member; null when the service or an option is no longer on the menu. */
export type OpenStartsFinder = (query: OpenStartsQuery) => Promise<Map<number, string[]> | null>;

interface OpenStartsSource {
  activeServices(): Promise<ServiceWithOptions[]>;
  lengthOf(serviceMinutes: number, optionMinutes: readonly number[]): Promise<BookingLength>;
  startsByStaff(date: string, length: BookingLength, staffId?: number): Promise<{ starts: Map<number, string[]> }>;
}

export async function findOpenStarts(source: OpenStartsSource, query: OpenStartsQuery) {
  let length: BookingLength;
  try {
    ({ length } = await resolveMenuChoice(source, {
      serviceId: query.serviceId,
      optionIds: query.optionIds,
      serviceField: 'service_id',
    }));
  } catch {
    // Taken off the menu since: nothing can be booked for it.
    return null;
  }
  return (await source.startsByStaff(query.date, length, query.staffId ?? undefined)).starts;
}
