/**
 * The read endpoints under load, each with a mix of realistic requests: the customer booking calendar
 * (bookable dates of this or next month, the starts of one of the next 30 days) and the staff screens (the
 * reservation list of one day, a customer search by surname, full name or reading). GET /api/salons/ (one small
 * uncached query) is the app's own floor: what any endpoint costs before its work (plugins, hooks, one round trip).
 * Its key is still `config`, the endpoint it measured until /api/config/ was answered from the read cache.
 */
import { addDaysToDate } from '../../src/shared/time';
import type { Dataset } from './dataset';
import { GIVEN_NAMES, SURNAMES } from './names';
import { pick, seeded, shuffled } from './random';

export type ReadKey =
  'config' | 'bookable-dates' | 'availability' | 'day-list' | 'day-list-uncached' | 'customer-search';

export interface ReadEndpoint {
  key: ReadKey;
  label: string;
  /** Who calls it: the public booking pages, or a staff member (the superuser's token). */
  auth: 'public' | 'staff';
  paths: string[];
  /**
   * Every request a different path, the rotation going on across runs (warm-up included) instead of starting again:
   * no answer of the app's read cache is ever asked for twice while it lives.
   */
  distinct?: boolean;
}

const MIX = 400;

export const READ_LABELS: Record<ReadKey, string> = {
  config: 'GET /api/salons/ (one query: the floor)',
  'bookable-dates': 'GET /api/bookable-dates/',
  availability: 'GET /api/availability/',
  'day-list': 'GET /api/admin/reservations/ (one day)',
  'day-list-uncached': 'GET /api/admin/reservations/ (one day, uncached)',
  'customer-search': 'GET /api/admin/customers/?name=',
};

export function readEndpoints(ds: Dataset): ReadEndpoint[] {
  const random = seeded(8);
  const upcomingDay = () => addDaysToDate(ds.today, 1 + Math.floor(random() * 30));
  const months = [0, 1].map((ahead) => {
    const [year, month] = addDaysToDate(ds.today, ahead * 31)
      .split('-')
      .map(Number) as [number, number];
    return { year, month };
  });
  const list = (make: () => string) => Array.from({ length: MIX }, make);
  return [
    { key: 'config', label: READ_LABELS.config, auth: 'public', paths: ['/api/salons/'] },
    {
      key: 'bookable-dates',
      label: READ_LABELS['bookable-dates'],
      auth: 'public',
      paths: list(() => {
        const { year, month } = pick(months, random);
        return `/api/bookable-dates/?year=${year}&month=${month}&service_id=${pick(ds.serviceIds, random)}`;
      }),
    },
    {
      key: 'availability',
      label: READ_LABELS.availability,
      auth: 'public',
      paths: list(() => `/api/availability/?date=${upcomingDay()}&service_id=${pick(ds.serviceIds, random)}`),
    },
    {
      key: 'day-list',
      label: READ_LABELS['day-list'],
      auth: 'staff',
      paths: list(() => {
        const day = upcomingDay();
        return `/api/admin/reservations/?start_date=${day}&end_date=${day}`;
      }),
    },
    uncachedDayList(ds),
    {
      key: 'customer-search',
      label: READ_LABELS['customer-search'],
      auth: 'staff',
      paths: list(() => {
        const [surname, reading] = pick(SURNAMES, random);
        const [given] = pick(GIVEN_NAMES, random);
        const query = [surname, `${surname} ${given}`, reading][Math.floor(random() * 3)]!;
        return `/api/admin/customers/?name=${encodeURIComponent(query)}`;
      }),
    },
  ];
}

/**
 * The staff day list with every request a read-cache miss (docs/decisions/0017-staff-list-cache.md keys an answer by
 * its parsed query): one of the next 30 days with a page size from 100 to 1,000, over any upcoming day's row count
 * (about 20), so every page holds the day's rows and X-Total-Count their number whatever the size. 27,030 distinct
 * requests, in a fixed shuffled order: more than a run sends within the cache's 5 seconds.
 */
function uncachedDayList(ds: Dataset): ReadEndpoint {
  const paths: string[] = [];
  for (let ahead = 1; ahead <= 30; ahead += 1) {
    const day = addDaysToDate(ds.today, ahead);
    for (let limit = 100; limit <= 1000; limit += 1)
      paths.push(`/api/admin/reservations/?start_date=${day}&end_date=${day}&limit=${limit}`);
  }
  return {
    key: 'day-list-uncached',
    label: READ_LABELS['day-list-uncached'],
    auth: 'staff',
    paths: shuffled(paths, 35),
    distinct: true,
  };
}

/** The endpoints the bare server answers too (bench/bare-server.ts), loaded the same way on both. */
export const BARE_READS: ReadKey[] = ['customer-search', 'day-list-uncached'];
