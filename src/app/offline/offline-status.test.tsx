import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeReservation } from '#tests/setup/admin-fixtures';
import { renderWithProviders } from '#tests/setup/render';
import { db, type OutboxEntry } from '#src/lib/db';
import { reloadOutbox, resetOutboxForTests } from '#src/lib/outbox';
import { MESSAGES } from '#src/shared/messages';
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
    await db.outbox.add(refused('rescheduled', MESSAGES.reservationMovedMeanwhile, '2030-01-16T11:00:00'));
    await reloadOutbox();
    renderWithProviders(<OfflineStatus />);
    const conflict = await screen.findByTestId('outbox-conflict');
    expect(conflict).toHaveTextContent(MESSAGES.reservationMovedMeanwhile);
    expect(conflict).toHaveTextContent('2030年01月15日 14:00');
    expect(conflict).toHaveTextContent('2030年01月16日 11:00');
    expect(within(conflict).getByRole('button', { name: '変更を破棄' })).toBeInTheDocument();
    expect(within(conflict).queryByRole('button', { name: 'もう一度送信' })).not.toBeInTheDocument();
  });

  it('other conflicts keep the resend button and show no times', async () => {
    await db.outbox.add(refused('stale_status', MESSAGES.staleStatus, '2030-01-15T14:00:00'));
    await reloadOutbox();
    renderWithProviders(<OfflineStatus />);
    const conflict = await screen.findByTestId('outbox-conflict');
    expect(within(conflict).getByRole('button', { name: 'もう一度送信' })).toBeInTheDocument();
    expect(conflict).not.toHaveTextContent('2030年01月15日');
  });
});
