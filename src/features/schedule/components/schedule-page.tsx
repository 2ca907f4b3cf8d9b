import { Box, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { useState, type CSSProperties } from 'react';
import { CALENDAR_PROPS } from '#src/components/calendar';
import { RetryAlert } from '#src/components/retry-alert';
import { todayLocal } from '#src/lib/device-time';
import { useOnline } from '#src/lib/online';
import { formatCalendarDay } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { ScheduleDay } from '#src/shared/schemas/schedule';
import { useConfiguredDates, useScheduleDays, useStaffMembers } from '../api/schedule-queries';
import { CalendarFeedSection } from './calendar-feed-section';
import { PushSection } from './push-section';
import { HolidaysSection } from './holidays-section';
import { SlotsDialog } from './slots-dialog';
import { WeeklyShiftEditor } from './weekly-shift-editor';

export interface ScheduleViewer {
  id: number;
  is_superuser: boolean;
}

/** The highlight of a configured day (docs/screens.md#schedule: green); dark text keeps WCAG AA contrast. */
const CONFIGURED_STYLE = {
  backgroundColor: 'var(--mantine-color-green-1)',
  // Mantine's green 9 reaches only 3.9:1 on green 1; this darker green reaches 7:1.
  color: '#14532d',
  fontWeight: 700,
  boxShadow: 'inset 0 0 0 1px var(--mantine-color-green-6)',
};

/**
 * How a day is decided (GET /api/admin/schedule-days/), each with its colour and its word: the calendar shows the
 * result of the weekly shift, the days set by hand, the 定休日 and the 休業日. The hand-set day keeps the green of
 * a configured day; every text colour reaches WCAG AA on its background.
 */
export const SOURCE_LOOK: Record<ScheduleDay['source'], { label: string; style: CSSProperties }> = {
  template: {
    label: 'テンプレート',
    style: { backgroundColor: 'var(--mantine-color-blue-0)', color: '#1e3a8a' },
  },
  exception: { label: '個別設定', style: CONFIGURED_STYLE },
  closed: {
    label: '定休日',
    style: { backgroundColor: 'var(--mantine-color-gray-2)', color: '#374151', textDecoration: 'line-through' },
  },
  holiday: {
    label: '休業日',
    style: { backgroundColor: 'var(--mantine-color-red-1)', color: '#7f1d1d', textDecoration: 'line-through' },
  },
  off: { label: '休み', style: { color: '#4b5563' } },
};

/** The legend's words: the weekly shift is called テンプレート there, as the staff set it in 週間シフト. */
const LEGEND: Array<[ScheduleDay['source'], string]> = [
  ['template', 'テンプレート（週間シフト）'],
  ['exception', '個別設定'],
  ['closed', '定休日'],
  ['holiday', '休業日'],
  ['off', '休み'],
];

function dayLabel(day: ScheduleDay): string {
  const { label } = SOURCE_LOOK[day.source];
  // A hand-set day with no times, or a shift day with none, is worth saying.
  return (day.source === 'exception' || day.source === 'template') && !day.open ? `${label}・受付なし` : label;
}

/**
 * docs/screens.md#schedule (受付時間設定): the weekly shift (週間シフト), a
 * calendar whose days say how each is decided (the hand-set ones in green), and a day's dialog with one checkbox per
 * 30-minute slot, which sets that day by hand. A superuser may edit another staff member's schedule and the salon's
 * holidays.
 */
export function SchedulePage({ viewer }: { viewer?: ScheduleViewer | null }) {
  const today = todayLocal();
  const online = useOnline();
  const [month, setMonth] = useState(dayjs().startOf('month').format('YYYY-MM-DD'));
  const [selected, setSelected] = useState<string | null>(null);
  const isSuperuser = Boolean(viewer?.is_superuser);
  const [staffId, setStaffId] = useState<number | undefined>(undefined);
  // A superuser without a choice edits their own; the server forces everyone else to their own.
  const userId = isSuperuser ? (staffId ?? viewer?.id) : undefined;

  const staff = useStaffMembers(isSuperuser);
  const shown = dayjs(month);
  const year = shown.year();
  const monthNumber = shown.month() + 1;
  const configured = useConfiguredDates(year, monthNumber, userId);
  const configuredSet = new Set(configured.data ?? []);
  const days = useScheduleDays(year, monthNumber, userId);
  const dayOf = new Map((days.data ?? []).map((day) => [day.date, day]));
  // Without the month's decided days (offline and never seen, or a failure) the calendar still shows the days set
  // by hand in green, as before shifts existed.
  const bySource = days.isSuccess;
  const openDays = (days.data ?? []).filter((day) => day.open).length;
  const handSet = (days.data ?? []).filter((day) => day.source === 'exception').length;

  return (
    <Stack gap="md">
      <title>受付時間設定 | スタッフ管理画面</title>
      <Title order={1} size="h2">
        受付時間設定
      </Title>
      <Text c="dimmed" size="sm">
        週間シフトで曜日ごとの勤務時間を決め、日付を選ぶとその日だけの受付時間（30分ごと）を設定できます。
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

      <WeeklyShiftEditor userId={userId} />

      {configured.isError && (
        <RetryAlert title={MESSAGES.adminSlotsLoadFailed} onRetry={() => void configured.refetch()} />
      )}
      {days.isError &&
        (online ? (
          <RetryAlert title={MESSAGES.adminScheduleDaysLoadFailed} onRetry={() => void days.refetch()} />
        ) : (
          <Text size="sm" c="dimmed">
            {MESSAGES.offlineNotShown('勤務予定の色分け')}
          </Text>
        ))}

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
            getDayAriaLabel={(date) => {
              const day = dayOf.get(date);
              if (bySource) return day ? `${formatCalendarDay(date)}（${dayLabel(day)}）` : formatCalendarDay(date);
              return `${formatCalendarDay(date)}${configuredSet.has(date) ? '（受付時間設定済み）' : ''}`;
            }}
            getDayProps={(date) => {
              const day = dayOf.get(date);
              if (bySource) return day ? { style: SOURCE_LOOK[day.source].style, 'data-source': day.source } : {};
              return configuredSet.has(date) ? { style: CONFIGURED_STYLE, 'data-configured': true } : {};
            }}
            aria-busy={configured.isFetching || days.isFetching}
          />
          {bySource ? (
            <SimpleGrid cols={{ base: 2, xs: 3 }} spacing={6} verticalSpacing={4} aria-hidden="true">
              {LEGEND.map(([source, label]) => (
                <Group key={source} gap="xs" wrap="nowrap">
                  <Box
                    w={16}
                    h={16}
                    style={{
                      ...SOURCE_LOOK[source].style,
                      borderRadius: 4,
                      boxShadow: 'inset 0 0 0 1px var(--mantine-color-gray-5)',
                    }}
                  />
                  <Text size="sm">{label}</Text>
                </Group>
              ))}
            </SimpleGrid>
          ) : (
            <Group gap="xs" aria-hidden="true">
              <Box w={16} h={16} style={{ ...CONFIGURED_STYLE, borderRadius: 4 }} />
              <Text size="sm">受付時間を設定済みの日</Text>
            </Group>
          )}
          <Text size="sm" c="dimmed" role="status">
            {bySource
              ? `${shown.format('YYYY年M月')}の勤務日: ${openDays}日（個別設定 ${handSet}日）`
              : configured.isPending
                ? '読み込み中…'
                : `${shown.format('YYYY年M月')}の設定済み: ${configuredSet.size}日`}
          </Text>
        </Stack>
      </Paper>

      {isSuperuser && <HolidaysSection year={year} month={monthNumber} />}

      <CalendarFeedSection />

      <PushSection />

      {selected && (
        <SlotsDialog
          date={selected}
          userId={userId}
          isException={dayOf.get(selected)?.source === 'exception'}
          onClose={() => setSelected(null)}
        />
      )}
    </Stack>
  );
}
