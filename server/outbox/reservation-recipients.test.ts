import { describe, expect, it } from 'vitest';
import { TRANSITIONS } from '../features/reservations/reservation-rules';
import { reservationRecipients, type ReservationAddresses, type ReservationEvent } from './reservation-recipients';

const everyone: ReservationAddresses = {
  customerEmail: 'hanako@example.com',
  customerLineUserId: 'U-customer',
  staffLineUserId: 'U-staff',
};

/** "audience -> kind" for the rows one event queues, in queueing order. */
const summary = (event: ReservationEvent, addresses: ReservationAddresses = everyone) =>
  reservationRecipients(event, addresses).map((row) => `${row.audience} ${row.kind}`);

describe('who hears about a reservation change', () => {
  it('a new booking: the customer by e-mail and LINE, the assigned staff member by LINE', () => {
    expect(reservationRecipients('created', everyone)).toEqual([
      { audience: 'customer_email', channel: 'email', kind: 'reservation_accepted', recipient: 'hanako@example.com' },
      { audience: 'customer_line', channel: 'line', kind: 'reservation_accepted', recipient: 'U-customer' },
      { audience: 'staff_line', channel: 'line', kind: 'staff_new_reservation', recipient: 'U-staff' },
    ]);
  });

  it('a booking staff make, confirmed at once: the confirmation to the customer, the new booking to the staff member', () => {
    expect(summary('created_confirmed')).toEqual([
      'customer_email reservation_confirmed',
      'customer_line reservation_confirmed',
      'staff_line staff_new_reservation',
    ]);
  });

  it('a confirmation: only the customer (the staff member confirmed it themselves)', () => {
    expect(summary('confirmed')).toEqual([
      'customer_email reservation_confirmed',
      'customer_line reservation_confirmed',
    ]);
  });

  it('a cancellation: the customer and the assigned staff member', () => {
    expect(summary('cancelled')).toEqual([
      'customer_email reservation_cancelled',
      'customer_line reservation_cancelled',
      'staff_line staff_reservation_cancelled',
    ]);
  });

  it('a move: the customer by e-mail and LINE, the staff member serving it by LINE, each with its own kind', () => {
    expect(reservationRecipients('rescheduled', everyone)).toEqual([
      {
        audience: 'customer_email',
        channel: 'email',
        kind: 'reservation_rescheduled',
        recipient: 'hanako@example.com',
      },
      { audience: 'customer_line', channel: 'line', kind: 'reservation_rescheduled', recipient: 'U-customer' },
      { audience: 'staff_line', channel: 'line', kind: 'staff_reservation_rescheduled', recipient: 'U-staff' },
    ]);
    expect(summary('rescheduled', { customerEmail: '', customerLineUserId: null, staffLineUserId: 'U-staff' })).toEqual(
      ['staff_line staff_reservation_rescheduled'],
    );
  });

  it('a move to another staff member: the one it was with is told too, once, and only for a move', () => {
    const handedOver = { ...everyone, previousStaffLineUserId: 'U-staff-before' };
    expect(summary('rescheduled', handedOver)).toEqual([
      'customer_email reservation_rescheduled',
      'customer_line reservation_rescheduled',
      'staff_line staff_reservation_rescheduled',
      'previous_staff_line staff_reservation_rescheduled',
    ]);
    expect(reservationRecipients('rescheduled', handedOver).at(-1)?.recipient).toBe('U-staff-before');
    expect(summary('rescheduled', { ...everyone, previousStaffLineUserId: 'U-staff' })).toHaveLength(3);
    expect(summary('rescheduled', { ...everyone, previousStaffLineUserId: null })).toHaveLength(3);
    expect(summary('cancelled', handedOver)).toHaveLength(3);
  });

  it('completed and no-show send nothing; confirm and cancel send their event', () => {
    expect(TRANSITIONS.confirm.event).toBe('confirmed');
    expect(TRANSITIONS.cancel.event).toBe('cancelled');
    expect(TRANSITIONS.complete.event).toBeUndefined();
    expect(TRANSITIONS.no_show.event).toBeUndefined();
  });

  it('skips an audience without an address: a walk-in without e-mail, accounts not linked to LINE', () => {
    const walkIn = { customerEmail: '', customerLineUserId: null, staffLineUserId: 'U-staff' };
    expect(summary('created', walkIn)).toEqual(['staff_line staff_new_reservation']);
    expect(summary('confirmed', walkIn)).toEqual([]);
    expect(summary('cancelled', { ...walkIn, customerEmail: '   ' })).toEqual([
      'staff_line staff_reservation_cancelled',
    ]);
    expect(summary('created', { ...everyone, staffLineUserId: null })).toEqual([
      'customer_email reservation_accepted',
      'customer_line reservation_accepted',
    ]);
    expect(summary('created', { customerEmail: '', customerLineUserId: null, staffLineUserId: null })).toEqual([]);
  });

  it('sends to the e-mail without the spaces around it', () => {
    const [row] = reservationRecipients('created', { ...everyone, customerEmail: '  hanako@example.com ' });
    expect(row?.recipient).toBe('hanako@example.com');
  });
});

describe('staff with subscribed browsers are told by Web Push instead of LINE', () => {
  it('one webpush row per browser of the assigned staff member, and no LINE push to them', () => {
    const rows = reservationRecipients('created', { ...everyone, staffPush: { staffId: 7, subscriptionIds: [3, 5] } });
    expect(rows.filter((row) => row.audience === 'staff_line')).toEqual([
      { audience: 'staff_line', channel: 'webpush', kind: 'staff_new_reservation', recipient: '3', staffId: 7 },
      { audience: 'staff_line', channel: 'webpush', kind: 'staff_new_reservation', recipient: '5', staffId: 7 },
    ]);
    expect(rows.filter((row) => row.channel === 'line').map((row) => row.recipient)).toEqual(['U-customer']);
  });

  it('no browsers: the LINE push stays', () => {
    const rows = reservationRecipients('cancelled', { ...everyone, staffPush: { staffId: 7, subscriptionIds: [] } });
    expect(rows.map((row) => `${row.audience} ${row.channel}`)).toContain('staff_line line');
  });

  it('a handover: each staff member by their own channel; a confirmation sends no push at all', () => {
    const rows = reservationRecipients('rescheduled', {
      ...everyone,
      previousStaffLineUserId: 'U-previous',
      staffPush: { staffId: 7, subscriptionIds: [3] },
    });
    expect(rows.map((row) => `${row.audience} ${row.channel} ${row.recipient}`)).toEqual([
      'customer_email email hanako@example.com',
      'customer_line line U-customer',
      'staff_line webpush 3',
      'previous_staff_line line U-previous',
    ]);
    expect(
      reservationRecipients('confirmed', { ...everyone, staffPush: { staffId: 7, subscriptionIds: [3] } }).some(
        (row) => row.channel === 'webpush',
      ),
    ).toBe(false);
  });
});
