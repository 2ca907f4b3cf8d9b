import { MESSAGES } from '#src/shared/messages';
import type { SalonSettings } from '#src/shared/schemas/settings';
import type { SettingsErrors } from './settings-fieldset';
import { noShowRuleErrors } from './no-show-rules-section';

type Field = keyof SalonSettings;

/** What the form can say before the round trip: required fields, ranges and the server's formats. */
export function settingsFormErrors(form: SalonSettings): SettingsErrors {
  const found: SettingsErrors = {};
  if (!form.salon_name.trim()) found.salon_name = MESSAGES.fieldRequired;
  for (const key of ['cancellation_deadline_days', 'min_notice_minutes', 'max_upcoming_per_customer'] as const) {
    if (!Number.isFinite(form[key])) found[key] = MESSAGES.fieldRequired;
  }
  const limit = form.line_monthly_push_limit;
  if (!Number.isInteger(limit) || limit < 0 || limit > 1_000_000) {
    found.line_monthly_push_limit = MESSAGES.lineMonthlyLimitRange;
  }
  if (form.business_start >= form.business_end) found.business_end = MESSAGES.businessHoursOrder;
  Object.assign(found, noShowRuleErrors(form));
  // The server's rules (src/shared/schemas/settings.ts), said before the round trip.
  if (!/^(|\d[\d-]*\d)$/.test(form.phone_number.trim())) found.phone_number = MESSAGES.salonPhoneInvalid;
  if (form.map_url.trim() && !/^https:\/\/[^\s/]+/.test(form.map_url.trim())) found.map_url = MESSAGES.mapUrlInvalid;
  return found;
}

/** Arrays (定休日) compare by their contents: an untouched list is no change. */
const same = (a: unknown, b: unknown) => (Array.isArray(a) && Array.isArray(b) ? a.join() === b.join() : a === b);

/** Only what changed: two superusers editing different settings do not overwrite each other. */
export function changedSettings(form: SalonSettings, initial: SalonSettings): Partial<SalonSettings> {
  return Object.fromEntries(
    (Object.keys(form) as Field[]).filter((key) => !same(form[key], initial[key])).map((key) => [key, form[key]]),
  );
}
