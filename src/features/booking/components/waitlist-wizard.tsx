import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '#src/components/loading-state';
import { servicesQuery } from '../api/booking-api';
import { useWaitlistPrefill } from '../hooks/use-waitlist-prefill';
import { BookingWizard } from './booking-wizard';

/**
 * /reserve?waitlist=<entry id>, the link of a キャンセル待ち offer: the wizard with the entry's menu on its day, or at
 * the menu with a short message when the entry is gone. A chunk of its own: /reserve without it does not carry it.
 */
export function WaitlistWizard({ entryId }: { entryId: number }) {
  const services = useQuery(servicesQuery);
  const state = useWaitlistPrefill(entryId, services.data);
  // A menu that does not load is the wizard's own error to show.
  if (state.status === 'ready' || state.status === 'menu') return <BookingWizard preset={state} />;
  if (services.isError) return <BookingWizard />;
  return <LoadingState label="キャンセル待ちのご案内を読み込み中…" />;
}
