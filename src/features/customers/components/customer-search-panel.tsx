import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { CollapsiblePanel } from '#src/components/collapsible-panel';
import type { CustomerFilters } from '../api/customers-api';

export type CustomerSearchValues = Required<CustomerFilters>;

export const EMPTY_SEARCH: CustomerSearchValues = { name: '', email: '', phone_number: '' };

interface CustomerSearchPanelProps {
  values: CustomerSearchValues;
  onChange: (values: CustomerSearchValues) => void;
}

/** docs/screens.md#customer-list: a collapsible 検索 panel with name, e-mail and phone filters. */
export function CustomerSearchPanel({ values, onChange }: CustomerSearchPanelProps) {
  const set = (key: keyof CustomerSearchValues) => (event: React.ChangeEvent<HTMLInputElement>) =>
    onChange({ ...values, [key]: event.currentTarget.value });

  return (
    <CollapsiblePanel title="検索">
      <SimpleGrid cols={{ base: 1, sm: 3 }} mt="sm">
        <TextInput label="名前" type="search" value={values.name} onChange={set('name')} />
        <TextInput label="メールアドレス" type="search" value={values.email} onChange={set('email')} />
        <TextInput
          label="電話番号"
          type="search"
          inputMode="numeric"
          value={values.phone_number}
          onChange={set('phone_number')}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="xs">
        入力をやめると1秒後に検索します。
      </Text>
    </CollapsiblePanel>
  );
}
