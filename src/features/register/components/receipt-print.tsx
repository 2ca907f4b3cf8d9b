import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { fetchReceiptHtml, type ReceiptOptions } from '../api/register-api';

/**
 * Prints a receipt. The receipt endpoint needs the staff's bearer token, which a plain link in a new tab would not
 * carry, so the HTML is fetched here and written into a window opened on the click (a window opened later is
 * blocked as a popup). The window is about:blank of this origin: it keeps the app's CSP (the receipt has no
 * script and inline styles only, which the CSP allows), and a blob: or iframe URL would need the CSP widened.
 */
export async function printReceipt(checkoutId: number, options: ReceiptOptions, opened = window.open('', '_blank')) {
  if (!opened) throw new Error('ポップアップがブロックされました。ブラウザの設定で許可してください。');
  opened.document.title = '領収書を読み込み中…';
  try {
    const html = await fetchReceiptHtml(checkoutId, options);
    opened.document.open();
    opened.document.write(html);
    opened.document.close();
    opened.focus();
    opened.print();
  } catch (error) {
    opened.close();
    throw error;
  }
}

/** 領収書を印刷, with 但し書き and 宛名 (the customer's name). */
export function ReceiptPrintButton({ checkoutId, size = 'md' }: { checkoutId: number; size?: 'md' | 'lg' }) {
  const [proviso, setProviso] = useState('');
  const [withName, setWithName] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [printing, setPrinting] = useState(false);
  const print = () => {
    setError(null);
    setPrinting(true);
    printReceipt(checkoutId, { proviso, withName })
      .catch((failure: unknown) =>
        setError(
          failure instanceof Error && !isApiError(failure)
            ? failure.message
            : errorDetail(failure, '領収書を開けませんでした。'),
        ),
      )
      .finally(() => setPrinting(false));
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <TextInput
          label="但し書き"
          placeholder="ネイル施術代として"
          maxLength={100}
          value={proviso}
          onChange={(event) => setProviso(event.currentTarget.value)}
        />
        <Checkbox
          label="宛名（お客様のお名前）を入れる"
          checked={withName}
          onChange={(event) => setWithName(event.currentTarget.checked)}
        />
      </Group>
      <Button size={size} variant="outline" loading={printing} onClick={print}>
        領収書を印刷
      </Button>
      {error && (
        <Text c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
