import { Button, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { MESSAGES } from '#src/shared/messages';
import type { WaitlistJoinProps } from './waitlist-join';

// The form (and its dialog) is a chunk of its own, fetched when the customer opens it or a day turns out full.
const WaitlistJoin = lazy(() => import('./waitlist-join').then((m) => ({ default: m.WaitlistJoin })));

/**
 * The date step's way onto the waitlist: a button, or the form itself once opened or once a chosen day has no free
 * start (`suggestedDate`).
 */
export function WaitlistJoinEntry(props: Omit<WaitlistJoinProps, 'onClose'>) {
  const [opened, setOpened] = useState(props.suggestedDate !== null);
  const [shownFor, setShownFor] = useState(props.suggestedDate);
  if (shownFor !== props.suggestedDate) {
    // A new full day picked in the calendar opens the form with it.
    setShownFor(props.suggestedDate);
    if (props.suggestedDate) setOpened(true);
  }
  if (opened) {
    return (
      // Its own boundary: loading the form keeps the calendar above it on screen.
      <Suspense fallback={<LoadingState />}>
        <WaitlistJoin {...props} onClose={() => setOpened(false)} />
      </Suspense>
    );
  }
  return (
    <Stack gap={4} w="100%" align="center">
      <Text size="sm" c="dimmed" ta="center">
        ご希望の日に空きがない場合は、キャンセル待ちに登録できます。
      </Text>
      <Button variant="light" onClick={() => setOpened(true)} w={{ base: '100%', xs: 320 }}>
        {MESSAGES.waitlistJoin}
      </Button>
    </Stack>
  );
}
