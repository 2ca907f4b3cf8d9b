import type { ReceiptLine } from './types';

/** A booking as the register reads it: its total price includes the options and the 指名料. */
interface BookedVisit {
  serviceId: number;
  serviceName: string;
  price: number;
  options: readonly { id: number; name: string; price: number }[];
  isNominated: boolean;
  nominationFee: number;
  staffId: number;
}

/**
 * The lines of a booking at its booked prices: the menu, each option and the 指名料 (all at the standard rate).
 * Shared: the server's checkout draft and the browser's draft of a booking opened offline are the same lines.
 */
export function bookingLines(visit: BookedVisit): ReceiptLine[] {
  const optionsTotal = visit.options.reduce((sum, option) => sum + option.price, 0);
  const fee = visit.isNominated ? visit.nominationFee : 0;
  return [
    {
      kind: 'service',
      ref_id: visit.serviceId,
      name: visit.serviceName,
      unit_price: visit.price - optionsTotal - fee,
      quantity: 1,
      tax_rate: 10,
    },
    ...visit.options.map((option) => ({
      kind: 'option' as const,
      ref_id: option.id,
      name: option.name,
      unit_price: option.price,
      quantity: 1,
      tax_rate: 10 as const,
    })),
    ...(fee > 0
      ? [
          {
            kind: 'nomination' as const,
            ref_id: visit.staffId,
            name: '指名料',
            unit_price: fee,
            quantity: 1,
            tax_rate: 10 as const,
          },
        ]
      : []),
  ];
}
