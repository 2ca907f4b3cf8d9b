import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { strandedOf, StrandedReservationsAlert } from '#src/components/stranded-reservations-alert';
import { errorDetail } from '#src/lib/api-client';
import { fieldErrorsOf } from '#src/lib/api-errors';
import { showNotification } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { SalonSettings } from '#src/shared/schemas/settings';
import { useSettings, useUpdateSettings } from '../api/settings-queries';
import { BookingRulesSection, BookingSlotsSection, BusinessHoursSection } from './booking-rule-sections';
import { LineUsagePanel } from './line-usage-panel';
import { NoShowRulesSection } from './no-show-rules-section';
import { ContactSection, LineLimitSection, RemindersSection, SalonNameSection } from './salon-sections';
import type { SettingsErrors, SettingsSectionProps } from './settings-fieldset';
import { changedSettings, settingsFormErrors } from './settings-form';

/** The salon's rules that the server keeps (docs/architecture.md, docs/screens.md#settings); superusers only. */
export function SettingsPage() {
  const settings = useSettings();
  return (
    <Stack gap="md">
      <title>設定 | スタッフ管理画面</title>
      <Title order={1} size="h2">
        設定
      </Title>
      <LineUsagePanel />
      {settings.isPending ? (
        <LoadingState />
      ) : settings.isError ? (
        <RetryAlert title={MESSAGES.adminSettingsLoadFailed} onRetry={() => void settings.refetch()} />
      ) : (
        // Keyed by the stored values: after a save the form starts again from what the server answered.
        <SettingsForm key={JSON.stringify(settings.data)} initial={settings.data} />
      )}
    </Stack>
  );
}

/** One form over every section; 保存する checks it, then sends only the settings that changed. */
function SettingsForm({ initial }: { initial: SalonSettings }) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const update = useUpdateSettings();
  const set: SettingsSectionProps['set'] = (key, value) => setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const found = settingsFormErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const patch = changedSettings(form, initial);
    if (Object.keys(patch).length === 0) {
      showNotification({ color: 'gray', message: '変更はありません。' });
      return;
    }
    update.mutate(patch, {
      onSuccess: () => showNotification({ color: 'green', message: MESSAGES.adminSaved }),
      onError: (error) => {
        setErrors(fieldErrorsOf(error));
      },
    });
  };

  const section = { form, errors, set };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SalonNameSection {...section} />
        <ContactSection {...section} />
        <BookingRulesSection {...section} />
        <BusinessHoursSection {...section} />
        <BookingSlotsSection {...section} />
        <NoShowRulesSection {...section} />
        <RemindersSection {...section} />
        <LineLimitSection {...section} />

        <StrandedReservationsAlert error={update.error} />
        {update.isError && !strandedOf(update.error) && (
          <Alert color="red" role="alert" title={errorDetail(update.error, MESSAGES.adminSlotsSaveFailed)} />
        )}
        <Group>
          <Button type="submit" loading={update.isPending}>
            保存する
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
