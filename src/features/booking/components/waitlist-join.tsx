import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { availabilityQuery, type MenuChoice } from '#src/components/slot-picker/slot-queries';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { todayLocal } from '#src/lib/device-time';
import { paths } from '#src/lib/paths';
import { usePublicConfig } from '#src/lib/public-config';
import { waitlistKeys } from '#src/lib/query-keys';
import { formatDateJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { withinWindow } from '#src/shared/slots';
import type { JoinWaitlistRequest } from '#src/shared/schemas/waitlist';
import { joinWaitlist } from '../api/waitlist-join-api';

export interface WaitlistJoinProps {
  /** The service, options and 指名 the customer chose: the entry waits for exactly that. */
  choice: MenuChoice;
  menuName: string;
  /** A day the customer picked that turned out full: the form starts with it. */
  suggestedDate: string | null;
  /** Opens the wizard's times of a day: what the form offers when the wished window still has free starts. */
  onBookDay(date: string): void;
  onClose(): void;
}

type Outcome = { ok: true } | { ok: false; message: string; fields: Record<string, string[]> };

/** Half-hour starts within the salon's hours (the server checks them against its own grid). */
function windowTimes(from = '09:00', to = '21:00'): string[] {
  const minutes = (value: string) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5));
  const result: string[] = [];
  for (let m = minutes(from); m <= minutes(to); m += 30) {
    result.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  }
  return result;
}

/** The wished window still has free starts: they are offered for booking instead of a place on the waitlist. */
function FreeTimes({ date, times, onBook }: { date: string; times: string[]; onBook(): void }) {
  return (
    <Alert color="blue" role="status" title={MESSAGES.waitlistTimesFree}>
      <Stack gap="xs">
        <Text size="sm">
          {formatDateJa(date)}の空き: {times.join('、')}
        </Text>
        <Button onClick={onBook}>空いている時間から予約する</Button>
      </Stack>
    </Alert>
  );
}

/**
 * キャンセル待ちに登録 on the wizard's date step: for a day with no free start, the customer leaves the day (and
 * optionally a window of starts); when a start frees up the salon's server offers it by LINE (e-mail without LINE),
 * first come, first served. Asks before sending; says what happens next once registered.
 */
export function WaitlistJoin({ choice, menuName, suggestedDate, onBookDay, onClose }: WaitlistJoinProps) {
  const queryClient = useQueryClient();
  const config = usePublicConfig();
  const today = todayLocal();
  const [date, setDate] = useState<string>(suggestedDate ?? '');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [freeTimes, setFreeTimes] = useState<string[]>([]);
  const [shownFor, setShownFor] = useState(suggestedDate);
  if (shownFor !== suggestedDate) {
    // A new full day picked in the calendar: the form follows it (React's pattern for state that follows a prop).
    setShownFor(suggestedDate);
    if (suggestedDate) {
      setDate(suggestedDate);
      setOutcome(null);
      setFreeTimes([]);
    }
  }
  const settings = config.data?.settings;
  const times = windowTimes(settings?.business_start?.slice(0, 5), settings?.business_end?.slice(0, 5));
  const timeOptions = [{ value: '', label: '指定なし' }, ...times.map((time) => ({ value: time, label: time }))];
  const fieldError = (field: string) => (outcome && !outcome.ok ? outcome.fields[field]?.[0] : undefined);

  const send = async () => {
    setConfirming(false);
    setSending(true);
    setOutcome(null);
    const body: JoinWaitlistRequest = {
      service_id: choice.serviceId,
      date,
      option_ids: [...choice.optionIds],
      ...(choice.staffId !== null ? { staff_id: choice.staffId } : {}),
      ...(from ? { time_from: from } : {}),
      ...(to ? { time_to: to } : {}),
    };
    try {
      await joinWaitlist(body);
      void queryClient.invalidateQueries({ queryKey: waitlistKeys.all });
      setOutcome({ ok: true });
    } catch (error) {
      const message = isApiError(error) ? errorDetail(error, MESSAGES.waitlistJoinFailed) : MESSAGES.serverError;
      setOutcome({ ok: false, message, fields: isApiError(error) ? (error.fields ?? {}) : {} });
    } finally {
      setSending(false);
    }
  };

  if (outcome?.ok) {
    return (
      <Alert color="green" role="status" w="100%" title="キャンセル待ちに登録しました">
        <Stack gap="xs">
          <Text size="sm">{MESSAGES.waitlistJoined}</Text>
          <Link to={paths.reservations}>予約一覧で確認する</Link>
        </Stack>
      </Alert>
    );
  }

  return (
    <Paper withBorder p="md" radius="md" w="100%" component="section" aria-labelledby="waitlist-join-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!date) return;
          // Free starts in the window are booked, not waited for (the server refuses them too, 409).
          void queryClient
            .fetchQuery(availabilityQuery(choice, date))
            .catch(() => [] as string[])
            .then((free) => {
              const inWindow = free.filter((time) => withinWindow(time, from || null, to || null));
              setFreeTimes(inWindow);
              if (inWindow.length === 0) setConfirming(true);
            });
        }}
      >
        <Stack gap="sm">
          <Text fw={700} id="waitlist-join-title">
            {MESSAGES.waitlistJoin}
          </Text>
          <Text size="sm">「{menuName}」に空きが出たら、LINE（LINE連携がない場合はメール）でお知らせします。</Text>
          <TextInput
            type="date"
            label="ご希望の日"
            required
            min={today}
            value={date}
            onChange={(event) => setDate(event.currentTarget.value)}
            error={fieldError('date')}
          />
          <Group grow gap="xs" align="flex-start">
            <NativeSelect
              label="開始時刻（から）"
              description="任意"
              data={timeOptions}
              value={from}
              onChange={(event) => setFrom(event.currentTarget.value)}
              error={fieldError('time_from')}
            />
            <NativeSelect
              label="開始時刻（まで）"
              description="任意"
              data={timeOptions}
              value={to}
              onChange={(event) => setTo(event.currentTarget.value)}
              error={fieldError('time_to')}
            />
          </Group>
          {freeTimes.length > 0 && <FreeTimes date={date} times={freeTimes} onBook={() => onBookDay(date)} />}
          {outcome && !outcome.ok && (
            <Alert color="red" role="alert">
              {outcome.message}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              閉じる
            </Button>
            <Button type="submit" loading={sending} disabled={!date}>
              登録する
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={confirming}
        message={MESSAGES.waitlistJoinQuestion(date ? formatDateJa(date) : '', menuName)}
        confirmLabel="登録する"
        cancelLabel="戻る"
        onConfirm={() => void send()}
        onCancel={() => setConfirming(false)}
      />
    </Paper>
  );
}
