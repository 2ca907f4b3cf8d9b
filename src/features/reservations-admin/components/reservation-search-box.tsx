import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';

/** 予約コード・お名前・電話番号: run by 検索 or Enter, the list keeps it in the address (?q=), the
 * 台帳 in its state (search.ts reads it). */
export function ReservationSearchBox({ typed, onSearch }: { typed: string; onSearch(typed: string): void }) {
  const [text, setText] = useState(typed);
  return (
    <form
      role="search"
      aria-label="予約の検索"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text);
      }}
    >
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label="予約コード・お名前・電話番号"
          placeholder="例: ABCD-2345"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Button type="submit" variant="default">
          検索
        </Button>
      </Group>
    </form>
  );
}
