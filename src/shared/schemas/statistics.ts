import { z } from 'zod';

const series = z.object({ labels: z.array(z.string()), data: z.array(z.number().int()) });

/**
 * GET /api/statistics/ (superuser). monthly_sales: the last 12 salon-local months, oldest first, labelled
 * `2026年11月`, in yen at the prices stored on the reservations (confirmed and completed only).
 * service_ranking: the top 5 services by confirmed and completed reservations. reservation_stats: counts of
 * every reservation per status.
 */
export const statisticsSchema = z.object({
  monthly_sales: series,
  service_ranking: series,
  reservation_stats: z.object({
    confirmed: z.number().int(),
    pending: z.number().int(),
    cancelled: z.number().int(),
    completed: z.number().int(),
    no_show: z.number().int(),
  }),
});
export type Statistics = z.infer<typeof statisticsSchema>;
