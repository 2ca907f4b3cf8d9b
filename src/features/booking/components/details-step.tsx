import { Button, Stack, TextInput } from '@mantine/core';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { trimDetails, validateDetails, type CustomerDetails, type DetailsErrors } from '../validation';

export interface DetailsStepProps {
  initial: CustomerDetails;
  onSubmit(details: CustomerDetails): void;
}

/**
 * Step 4 (docs/screens.md#booking-details-step): name, katakana furigana, e-mail (required) and phone (digits only, optional).
 * Messages appear after the first submit and follow every change after that.
 */
export function DetailsStep({ initial, onSubmit }: DetailsStepProps) {
  const [values, setValues] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const errors: DetailsErrors = submitted ? validateDetails(values) : {};

  const field = (name: keyof CustomerDetails) => ({
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [name]: value }));
    },
    error: errors[name],
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateDetails(values);
    if (Object.keys(found).length > 0) {
      const first = (['name', 'furigana', 'email', 'phone'] as const).find((key) => found[key]);
      if (first) document.getElementById(`details-${first}`)?.focus();
      return;
    }
    onSubmit(trimDetails(values));
  };

  return (
    <form onSubmit={submit} noValidate aria-label="お客様情報">
      <Stack gap="md">
        <TextInput id="details-name" label="お名前" required autoComplete="name" {...field('name')} />
        <TextInput
          id="details-furigana"
          label="フリガナ"
          description="カタカナで入力してください"
          placeholder="ヤマダ ハナコ"
          {...field('furigana')}
        />
        <TextInput
          id="details-email"
          label="メールアドレス"
          required
          type="email"
          autoComplete="email"
          inputMode="email"
          description="予約確認メールをお送りします"
          {...field('email')}
        />
        <TextInput
          id="details-phone"
          label="電話番号"
          type="tel"
          autoComplete="tel"
          inputMode="numeric"
          description="ハイフンなしの数字のみ（任意）"
          placeholder="09012345678"
          {...field('phone')}
        />
        <Button type="submit" size="md" fullWidth>
          予約内容を確認する
        </Button>
      </Stack>
    </form>
  );
}
