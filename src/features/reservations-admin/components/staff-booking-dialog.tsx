import { Modal } from '@mantine/core';
import { useNavigate } from 'react-router';
import { toast } from '#src/lib/notify';
import { paths } from '#src/lib/paths';
import type { StaffBookingDialogProps } from '#src/lib/staff-booking-dialog-slot';
import { MESSAGES } from '#src/shared/messages';
import { StaffBookingForm } from './staff-booking-form';

export type { StaffBookingDialogProps };

/**
 * 予約作成 (docs/screens.md#staff-booking-dialog): staff book a phone or walk-in customer (新規顧客) or a known one
 * (`customerId`, 既存顧客) with the customer wizard's choices: menu, options, 指名 or 指名なし, and only the starts the
 * whole booking fits. Created confirmed; the dialog then closes and the booking is shown (its detail page, unless
 * the caller shows it itself through `onCreated`), with one message saying so.
 */
export function StaffBookingDialog({ opened, onClose, customerId, initial, onCreated }: StaffBookingDialogProps) {
  const navigate = useNavigate();
  const created = (reservationNumber: string) => {
    onClose();
    toast(
      'green',
      customerId === undefined ? MESSAGES.adminNewCustomerCreated : MESSAGES.adminReservationCreatedConfirmed,
    );
    if (onCreated) onCreated(reservationNumber);
    else void navigate(paths.adminReservation(reservationNumber));
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={customerId === undefined ? '予約作成（新規顧客）' : '予約作成（既存顧客）'}
      size="lg"
      centered
    >
      {/* Mounted only while open: every opening starts from the prefill alone. */}
      {opened && <StaffBookingForm customerId={customerId} initial={initial} onCancel={onClose} onCreated={created} />}
    </Modal>
  );
}
