import { usePendingChange, type PendingChange } from '#src/lib/outbox-hooks';
import { defineChange } from '#src/lib/outbox-changes';
import { paths } from '#src/lib/paths';
import type { AdminCustomer } from '#src/shared/schemas/customers';

/** A customer's memo, queueable (docs/architecture.md#offline-design). */
interface CustomerNotesChange {
  customerId: number;
  notes: string;
  /** For the list of refused changes, which may be shown before the customer's row is at hand. */
  customerName?: string;
}

const customerTarget = (customerId: number) => `customer:${customerId}`;

const CUSTOMER_ROUTE = { method: 'GET', path: '/api/admin/customers/:id/' } as const;

export const customerNotesChange = defineChange<CustomerNotesChange>({
  kind: 'customer-notes',
  route: { method: 'PATCH', path: CUSTOMER_ROUTE.path },
  stateRoute: CUSTOMER_ROUTE,
  params: ({ customerId }) => ({ id: customerId }),
  target: ({ customerId }) => customerTarget(customerId),
  body: ({ notes }) => ({ notes }),
  // The local effect: the memo screen shows the memo as it will be.
  keep: ({ customerId, customerName, notes }) => ({ customerId, customerName, notes }),
  describe: (entry) => {
    const server = entry.serverState as AdminCustomer | null | undefined;
    const name = (entry.customerName as string | undefined) ?? server?.name ?? `顧客 ${String(entry.customerId)}`;
    return {
      title: `${name} 様のメモ`,
      link: paths.adminCustomer(Number(entry.customerId)),
      mineLabel: 'この端末でのメモ',
      theirsLabel: 'サーバーのメモ',
      mine: typeof entry.notes === 'string' ? entry.notes : '',
      theirs: server?.notes ?? '',
    };
  },
});

/** The memo a customer will have once the waiting edits are sent. */
export function usePendingNotes(customerId: number): PendingChange<string> {
  return usePendingChange(customerTarget(customerId), (entry) => entry.notes as string | undefined);
}
