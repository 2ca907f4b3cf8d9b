import { Collapse, Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useId, type ReactNode } from 'react';

/** A bordered panel, closed at first, whose title opens and closes it (docs/screens.md#customer-list and docs/screens.md#message-history: the 検索 and 一斉送信 panels). */
export function CollapsiblePanel({ title, children }: { title: string; children: ReactNode }) {
  const [opened, { toggle }] = useDisclosure(false);
  const panelId = useId();
  return (
    <Paper withBorder p="sm">
      <UnstyledButton onClick={toggle} aria-expanded={opened} aria-controls={panelId} w="100%">
        <Group justify="space-between">
          <Text fw={700}>{title}</Text>
          <Text aria-hidden="true" c="dimmed">
            {opened ? '▲' : '▼'}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={opened} id={panelId}>
        {children}
      </Collapse>
    </Paper>
  );
}
