import { Box, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { useState } from 'react';
import { CALENDAR_PROPS } from '#src/components/calendar';
import { RetryAlert } from '#src/components/retry-alert';
import { todayLocal } from '#src/lib/device-time';
import { formatCalendarDay } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { useConfiguredDates, useStaffMembers } from '../api/schedule-queries';
import { SlotsDialog } from './slots-dialog';

export interface ScheduleViewer {
  id: number;
  is_superuser: boolean;
}

/** The highlight of a configured day (docs/architecture.md#screens-and-texts: green); dark text keeps WCAG AA contrast. */
const CONFIGURED_STYLE = {
  backgroundColor: 'var(--mantine-color-green-1)',
  // Mantine's green 9 reaches only 3.9:1 on green 1; this darker green reaches 7:1.
  color: '#14532d',
  fontWeight: 700,
  boxShadow: 'inset 0 0 0 1px var(--mantine-color-green-6)',
};

/**
 * docs/architecture.md#screens-and-texts admin opening-time settings (受付時間設定): a calendar with the configured days in green; a day opens
 * the dialog with one checkbox per 30-minute slot. A superuser may edit another staff member's schedule.
 */
export function SchedulePage({ viewer }: { viewer?: ScheduleViewer | null }) {
  const today = todayLocal();
  const [month, setMonth] = useState(dayjs().startOf('month').format('YYYY-MM-DD'));
  const [selected, setSelected] = useState<string | null>(null);
  const isSuperuser = Boolean(viewer?.is_superuser);
  const [staffId, setStaffId] = useState<number | undefined>(undefined);
  // A superuser without a choice edits their own; the server forces everyone else to their own.
  const userId = isSuperuser ? (staffId ?? viewer?.id) : undefined;

  const staff = useStaffMembers(isSuperuser);
  const shown = dayjs(month);
  const configured = useConfiguredDates(shown.year(), shown.month() + 1, userId);
  const configuredSet = new Set(configured.data ?? []);

  return (
    <Stack gap="md">
      <title>受付時間設定 | スタッフ管理画面</title>
      <Title order={1} size="h2">
        受付時間設定
      </Title>
      <Text c="dimmed" size="sm">
        日付を選ぶと、30分ごとの受付時間を設定できます。
      </Text>

      {isSuperuser && (
        <Select
          label="担当スタッフ"
          maw={320}
          allowDeselect={false}
          data={(staff.data ?? [])
            .filter((member) => member.is_active)
            .map((member) => ({ value: String(member.id), label: member.full_name || member.username }))}
          value={userId ? String(userId) : null}
          placeholder={staff.isPending ? '読み込み中…' : undefined}
          onChange={(value) => setStaffId(value ? Number(value) : undefined)}
        />
      )}

      {configured.isError && (
        <RetryAlert title={MESSAGES.adminSlotsLoadFailed} onRetry={() => void configured.refetch()} />
      )}

      <Paper withBorder radius="md" p="md" w="fit-content" maw="100%">
        <Stack gap="sm">
          <DatePicker
            {...CALENDAR_PROPS}
            size="md"
            value={null}
            date={month}
            onDateChange={setMonth}
            minDate={today}
            onChange={(value) => setSelected(value)}
            getDayAriaLabel={(date) =>
              `${formatCalendarDay(date)}${configuredSet.has(date) ? '（受付時間設定済み）' : ''}`
            }
            getDayProps={(date) =>
              configuredSet.has(date) ? { style: CONFIGURED_STYLE, 'data-configured': true } : {}
            }
            aria-busy={configured.isFetching}
          />
          <Group gap="xs" aria-hidden="true">
            <Box w={16} h={16} style={{ ...CONFIGURED_STYLE, borderRadius: 4 }} />
            <Text size="sm">受付時間を設定済みの日</Text>
          </Group>
          <Text size="sm" c="dimmed" role="status">
            {configured.isPending ? '読み込み中…' : `${shown.format('YYYY年M月')}の設定済み: ${configuredSet.size}日`}
          </Text>
        </Stack>
      </Paper>

      {selected && <SlotsDialog date={selected} userId={userId} onClose={() => setSelected(null)} />}
    </Stack>
  );
}
