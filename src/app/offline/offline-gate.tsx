import { Center } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { LoadingState } from '../../components/loading-state';

/** A broken or very slow IndexedDB must not keep the screens away; past this they render without local data. */
const MAX_WAIT_MS = 3000;

const hasIndexedDb = () => typeof indexedDB !== 'undefined';

/**
 * Starts the offline layer (./offline-layer.ts, a chunk of its own with Dexie) before the signed-in screens
 * render, so that their first queries already find the restored cache and, offline, the local data. Without
 * IndexedDB (some private modes, the component tests) the screens render at once, online only.
 */
export function OfflineGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [ready, setReady] = useState(!hasIndexedDb());

  useEffect(() => {
    if (!hasIndexedDb()) return;
    let cancelled = false;
    let stop: (() => void) | null = null;
    const timer = setTimeout(() => setReady(true), MAX_WAIT_MS);
    import('./offline-layer')
      .then(({ startOfflineLayer }) => startOfflineLayer(queryClient))
      .then(
        (stopLayer) => {
          if (cancelled) stopLayer();
          else stop = stopLayer;
        },
        (error: unknown) => console.warn('オフライン機能を開始できませんでした', error),
      )
      .finally(() => {
        // When the local data became available to the screens (the e2e suite reports it for cold starts).
        performance.mark('salon-offline-ready');
        clearTimeout(timer);
        if (!cancelled) setReady(true);
      });
    return () => {
      cancelled = true;
      clearTimeout(timer);
      stop?.();
    };
  }, [queryClient]);

  if (!ready) {
    return (
      <Center mih="60vh">
        <LoadingState />
      </Center>
    );
  }
  return children;
}
