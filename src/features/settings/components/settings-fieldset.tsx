import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { SalonSettings } from '#src/shared/schemas/settings';

export type SettingsErrors = Partial<Record<keyof SalonSettings, string>>;

/** What every section of the settings form is given: the values being edited, their errors, and the setter. */
export interface SettingsSectionProps {
  form: SalonSettings;
  errors: SettingsErrors;
  set: <K extends keyof SalonSettings>(key: K, value: SalonSettings[K]) => void;
}

type NumberField =
  'cancellation_deadline_days' | 'min_notice_minutes' | 'max_upcoming_per_customer' | 'line_monthly_push_limit';

/** A cleared number field is NaN in the form and empty on screen. */
export const shown = (value: number) => (Number.isFinite(value) ? value : '');

/** A NumberInput's onChange for `key`: a cleared field (Mantine's '') becomes NaN, which validation refuses. */
export const numberSetter = (set: SettingsSectionProps['set'], key: NumberField) => (value: string | number) =>
  set(key, typeof value === 'number' ? value : Number.NaN);

/** One titled group of settings (a fieldset with its legend). */
export function SettingsFieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
      <Text component="legend" fw={700} px={4}>
        {legend}
      </Text>
      {children}
    </Paper>
  );
}
