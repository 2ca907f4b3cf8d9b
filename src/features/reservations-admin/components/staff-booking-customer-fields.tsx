import { Group, TextInput } from '@mantine/core';
import type { NewCustomerValues } from '../hooks/use-staff-booking-form';

/** A phone or walk-in customer's name and contacts (新規顧客): only the name is required. */
export function NewCustomerFields({
  values,
  errors,
  set,
}: {
  values: NewCustomerValues;
  errors: Partial<Record<'name' | 'phone_number' | 'email', string>>;
  set(patch: Partial<NewCustomerValues>): void;
}) {
  return (
    <>
      <TextInput
        label="お名前"
        required
        autoComplete="off"
        value={values.name}
        error={errors.name}
        onChange={(event) => set({ name: event.currentTarget.value })}
      />
      <Group grow align="flex-start" gap="sm">
        <TextInput
          label="電話番号"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          description="ハイフンありでも可"
          value={values.phone}
          error={errors.phone_number}
          onChange={(event) => set({ phone: event.currentTarget.value })}
        />
        <TextInput
          label="メールアドレス"
          type="email"
          autoComplete="off"
          value={values.email}
          error={errors.email}
          onChange={(event) => set({ email: event.currentTarget.value })}
        />
      </Group>
    </>
  );
}
