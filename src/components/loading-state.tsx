import { Group, Loader, Text } from '@mantine/core';

interface LoadingStateProps {
  label?: string;
}

/** A spinner with words, so that screen readers and tests see the loading state too. */
export function LoadingState({ label = '読み込み中…' }: LoadingStateProps) {
  return (
    <Group gap="xs" role="status" aria-live="polite">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}
