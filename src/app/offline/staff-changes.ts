import { visitNoteChange, visitPhotoChange } from '../../components/karte/karte-changes';
import { customerNotesChange } from '../../features/customers/offline-changes';
import { checkoutChange } from '../../features/register/offline/checkout-change';
import { reservationCancelChange, reservationConfirmChange } from '../../features/reservations-admin/offline-changes';

/**
 * Every change the staff outbox can queue, as the features declare them (src/lib/outbox-changes.ts). Importing this
 * registers them all: the shell's list of refused changes and the replay know every kind, whichever screens were
 * opened. tests/integration/offline-changes.test.ts checks each against the server's route table.
 */
export const staffChangeKinds = [
  reservationConfirmChange,
  reservationCancelChange,
  customerNotesChange,
  visitPhotoChange,
  checkoutChange,
  visitNoteChange,
] as const;
