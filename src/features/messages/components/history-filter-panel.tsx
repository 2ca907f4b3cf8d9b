import { Button, Group, Paper, SimpleGrid, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { HistoryFilters } from '../api/messages-api';

export type HistoryFilterValues = Required<Pick<HistoryFilters, 'query' | 'start_date' | 'end_date'>>;

interface HistoryFilterPanelProps {
  values: HistoryFilterValues;
  onApply: (values: HistoryFilterValues) => void;
}

/** docs/screens.md#message-history: query text, start date and end date. */
export function HistoryFilterPanel({ values, onApply }: HistoryFilterPanelProps) {
  const [draft, setDraft] = useState(values);
  const set = (key: keyof HistoryFilterValues) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setDraft({ ...draft, [key]: event.currentTarget.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const clear = () => {
    const empty = { query: '', start_date: '', end_date: '' };
    setDraft(empty);
    onApply(empty);
  };

  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} role="search" aria-label="メッセージの絞り込み">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label="キーワード（顧客名・本文）" type="search" value={draft.query} onChange={set('query')} />
        <TextInput
          label="開始日"
          type="date"
          value={draft.start_date}
          max={draft.end_date || undefined}
          onChange={set('start_date')}
        />
        <TextInput
          label="終了日"
          type="date"
          value={draft.end_date}
          min={draft.start_date || undefined}
          onChange={set('end_date')}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={clear}>
          クリア
        </Button>
        <Button type="submit">絞り込む</Button>
      </Group>
    </Paper>
  );
}
