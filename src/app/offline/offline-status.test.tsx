import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeReservation } from '#tests/setup/admin-fixtures';
import { renderWithProviders } from '#tests/setup/render';
import { db, type OutboxEntry } from '#src/lib/db';
import { noteAnswer, noteNoAnswer, resetConnectionForTests } from '#src/lib/connection-state';
import { reloadOutbox, resetOutboxForTests } from '#src/lib/outbox';
import { updateOutboxSnapshot } from '#src/lib/outbox-state';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { OfflineStatus } from './offline-status';

const NUMBER = '44444444-4444-4444-8444-444444444444';

function refused(code: string, detail: string, serverStart: string): OutboxEntry {
  return {
    kind: 'reservation-confirm',
    target: `reservation:${NUMBER}`,
    method: 'POST',
    path: `/api/admin/reservations/${NUMBER}/confirm/`,
    body: { expected_start_time: '2030-01-15T14:00:00' },
    idempotencyKey: 'key-1',
    staffId: 7,
    createdAt: Date.now(),
    state: 'conflict',
    attempts: 1,
    reservationNumber: NUMBER,
    nextStatus: 'confirmed',
    expectedStartTime: '2030-01-15T14:00:00',
    error: { status: 409, code, detail },
    serverState: makeReservation({ reservation_number: NUMBER, status: 'pending', start_time: serverStart }),
  };
}

beforeEach(async () => {
  resetOutboxForTests();
  await db.outbox.clear();
});
afterEach(async () => {
  await db.outbox.clear();
  resetOutboxForTests();
});

describe('a refused offline change', () => {
  it('moved meanwhile: shows the time this device saw and the new one, and offers no resend', async () => {
    await db.outbox.add(refused('rescheduled', SERVER_MESSAGES.reservationMovedMeanwhile, '2030-01-16T11:00:00'));
    await reloadOutbox();
    renderWithProviders(<OfflineStatus />);
    const conflict = await screen.findByTestId('outbox-conflict');
    expect(conflict).toHaveTextContent(SERVER_MESSAGES.reservationMovedMeanwhile);
    expect(conflict).toHaveTextContent('2030年1月15日(火) 14:00');
    expect(conflict).toHaveTextContent('2030年1月16日(水) 11:00');
    expect(within(conflict).getByRole('button', { name: '変更を破棄' })).toBeInTheDocument();
    expect(within(conflict).queryByRole('button', { name: 'もう一度送信' })).not.toBeInTheDocument();
  });

  it('other conflicts keep the resend button and show no times', async () => {
    await db.outbox.add(refused('stale_status', SERVER_MESSAGES.staleStatus, '2030-01-15T14:00:00'));
    await reloadOutbox();
    renderWithProviders(<OfflineStatus />);
    const conflict = await screen.findByTestId('outbox-conflict');
    expect(within(conflict).getByRole('button', { name: 'もう一度送信' })).toBeInTheDocument();
    expect(conflict).not.toHaveTextContent('2030年1月15日(火)');
  });
});

describe('the connection’s three states', () => {
  let online = true;
  beforeEach(() => {
    online = true;
    resetConnectionForTests();
    Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  });
  afterEach(() => {
    online = true;
    resetConnectionForTests();
  });

  it('normal: neither banner', async () => {
    renderWithProviders(<OfflineStatus />);
    await screen.findByTestId('last-sync');
    expect(screen.queryByText('オフライン')).not.toBeInTheDocument();
    expect(screen.queryByText('接続が不安定です')).not.toBeInTheDocument();
  });

  it('online but no answers: 接続が不安定です, not オフライン; an answer ends it', async () => {
    noteNoAnswer();
    renderWithProviders(<OfflineStatus />);
    expect(await screen.findByText('接続が不安定です')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.connectionUnstableNotice)).toBeInTheDocument();
    expect(screen.queryByText('オフライン')).not.toBeInTheDocument();
    act(() => noteAnswer());
    await waitFor(() => expect(screen.queryByText('接続が不安定です')).not.toBeInTheDocument());
  });

  it('offline: オフライン, whatever the last request did', async () => {
    online = false;
    noteNoAnswer();
    renderWithProviders(<OfflineStatus />);
    expect(await screen.findByText('オフライン')).toBeInTheDocument();
    expect(screen.queryByText('接続が不安定です')).not.toBeInTheDocument();
  });

  it('waiting changes: 未送信 N件 and when the last send was tried', async () => {
    const entry = refused('stale_status', SERVER_MESSAGES.staleStatus, '2030-01-15T14:00:00');
    await db.outbox.add({ ...entry, state: 'pending', error: undefined, serverState: undefined });
    await reloadOutbox();
    updateOutboxSnapshot({ lastAttemptAt: new Date(2030, 0, 15, 9, 41, 7).getTime() });
    renderWithProviders(<OfflineStatus />);
    expect(await screen.findByTestId('outbox-count')).toHaveTextContent('未送信 1件');
    expect(screen.getByTestId('outbox-last-attempt')).toHaveTextContent('最終送信試行 9:41:07');
  });
});
