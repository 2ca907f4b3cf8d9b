import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { ApiError } from './api-client';

const MAX_RETRIES = 2;

/** A 4xx answer will not change by asking again; network errors and 5xx may. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

/**
 * The app's QueryClient. Persistence (staff offline cache) and mutation defaults (outbox) are added here by the
 * offline work; tests pass `overrides` to turn retries off.
 */
export function createQueryClient(overrides: QueryClientConfig = {}): QueryClient {
  return new QueryClient({
    ...overrides,
    defaultOptions: {
      ...overrides.defaultOptions,
      queries: {
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: true,
        ...overrides.defaultOptions?.queries,
      },
      mutations: {
        // A booking or a status change must never be sent twice by the library behind the user's back.
        retry: false,
        ...overrides.defaultOptions?.mutations,
      },
    },
  });
}
