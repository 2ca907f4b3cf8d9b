import { NumberInput, Paper, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { MESSAGES } from '#src/shared/messages';
import type { SalonSettings } from '#src/shared/schemas/settings';

type RuleField = 'auto_confirm_online_bookings' | 'approval_after_incidents' | 'late_cancel_hours';
type RuleSettings = Pick<SalonSettings, RuleField>;

/** The threshold a salon starts from when it turns the rule on (the server's default too, migration 0015). */
const DEFAULT_THRESHOLD = 2;

/** A cleared number field is NaN in the form and empty on screen. */
const shown = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : '');

/** The server's ranges (src/shared/schemas/settings.ts), said before the round trip. */
export function noShowRuleErrors(form: Partial<RuleSettings>): Partial<Record<RuleField, string>> {
  const errors: Partial<Record<RuleField, string>> = {};
  const threshold = form.approval_after_incidents;
  if (threshold != null && !(Number.isInteger(threshold) && threshold >= 1 && threshold <= 10)) {
    errors.approval_after_incidents = MESSAGES.approvalAfterIncidentsRange;
  }
  const hours = form.late_cancel_hours;
  if (hours !== undefined && !(Number.isInteger(hours) && hours >= 1 && hours <= 168)) {
    errors.late_cancel_hours = MESSAGES.lateCancelHoursRange;
  }
  return errors;
}

/**
 * 設定 「無断欠席・直前キャンセル」: whether online bookings confirm themselves, from how many no-shows and late
 * cancels a customer's bookings wait for staff instead (server/db/incidents.ts), and what counts as late.
 * Settings cached before these existed have none of them: the switches then read as the server's defaults.
 */
export function NoShowRulesSection({
  form,
  errors,
  set,
}: {
  form: Partial<RuleSettings>;
  errors: Partial<Record<string, string>>;
  set: <K extends keyof SalonSettings>(key: K, value: SalonSettings[K]) => void;
}) {
  const autoConfirm = form.auto_confirm_online_bookings ?? false;
  const ruleOn = form.approval_after_incidents !== null;
  return (
    <Paper withBorder radius="md" p="md" component="fieldset" m={0}>
      <Text component="legend" fw={700} px={4}>
        無断欠席・直前キャンセル
      </Text>
      <Stack gap="md">
        <Switch
          label="オンライン予約を自動で確定する"
          description="オフのときは、すべてのオンライン予約がスタッフの確定を待ちます"
          checked={autoConfirm}
          onChange={(event) => set('auto_confirm_online_bookings', event.currentTarget.checked)}
        />
        <Switch
          label="無断欠席・直前キャンセルが多いお客様の予約は承認制にする"
          description="自動確定がオンでも、このお客様のオンライン予約は「要承認」としてスタッフの確定を待ちます"
          checked={ruleOn}
          onChange={(event) => set('approval_after_incidents', event.currentTarget.checked ? DEFAULT_THRESHOLD : null)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <NumberInput
            label="承認制にする回数（無断欠席と直前キャンセルの合計）"
            description="1〜10回"
            min={1}
            max={10}
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            disabled={!ruleOn}
            value={shown(form.approval_after_incidents ?? (ruleOn ? DEFAULT_THRESHOLD : null))}
            error={errors.approval_after_incidents}
            onChange={(value) => set('approval_after_incidents', typeof value === 'number' ? value : Number.NaN)}
          />
          <NumberInput
            label="直前キャンセルとみなす時間（開始の何時間前から）"
            description="1〜168時間。記録はキャンセルした時点の設定で残ります"
            min={1}
            max={168}
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            value={shown(form.late_cancel_hours ?? 24)}
            error={errors.late_cancel_hours}
            onChange={(value) => set('late_cancel_hours', typeof value === 'number' ? value : Number.NaN)}
          />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
