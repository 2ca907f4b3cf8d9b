import { useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import type { SalesRow, SalesSummary } from '#src/shared/schemas/register';

/**
 * 売上 (takings, docs/architecture.md#register-会計): what checkouts took less voids and refunds, never booked prices.
 * Online only: the offline layer keeps no register data.
 */
export type TakingsGroup = 'day' | 'month' | 'staff' | 'menu' | 'method';

interface TakingsQuery {
  from: string;
  to: string;
  group: TakingsGroup;
}

function fetchTakings(query: TakingsQuery, signal?: AbortSignal) {
  return api.get<SalesRow[]>('/api/admin/sales/', { query: { ...query }, signal, offline: false });
}

export function useTakings(query: TakingsQuery) {
  return useQuery({
    queryKey: ['register', 'sales', query.from, query.to, query.group],
    queryFn: ({ signal }) => fetchTakings(query, signal),
  });
}

/** 客単価, 新規/再来 and the 90-day return rate of a period (GET /api/admin/sales/summary/). */
export function useTakingsSummary(from: string, to: string) {
  return useQuery({
    queryKey: ['register', 'sales-summary', from, to],
    queryFn: ({ signal }) =>
      api.get<SalesSummary>('/api/admin/sales/summary/', { query: { from, to }, signal, offline: false }),
  });
}

/**
 * Saves the accountant's CSV of a period. It is fetched with the staff token (a plain link would carry none) and
 * handed to the browser as a file; the BOM the server sends (for spreadsheets) is dropped by the text decoding, so
 * it is put back.
 */
export async function downloadCheckoutsCsv(from: string, to: string) {
  const text = await api.get<string>('/api/admin/checkouts.csv', {
    query: { from, to },
    headers: { Accept: 'text/csv' },
    offline: false,
  });
  const blob = new Blob([text.startsWith('\uFEFF') ? text : `\uFEFF${text}`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `checkouts-${from}-${to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
