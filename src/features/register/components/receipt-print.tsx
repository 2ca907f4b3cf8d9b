import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { receiptHtml } from '#src/shared/money/receipt-html';
import type { Checkout } from '#src/shared/schemas/register';
import type { SalonSettings } from '#src/shared/schemas/settings';
import { fetchReceiptHtml, type ReceiptOptions } from '../api/register-api';

/**
 * Whose receipt: a checkout the server has (its page, fetched), or one kept on this device until it is sent (the
 * same page written here from the salon's settings as last seen: src/shared/money/receipt-html.ts).
 */
type ReceiptSource = number | { local: Checkout; salon: SalonSettings | undefined };

function receiptPage(source: ReceiptSource, options: ReceiptOptions): Promise<string> {
  if (typeof source === 'number') return fetchReceiptHtml(source, options);
  const salon = source.salon;
  return Promise.resolve(
    receiptHtml(
      source.local,
      {
        name: salon?.salon_name ?? '',
        invoice_registration_number: salon?.invoice_registration_number ?? '',
        address: salon?.address ?? '',
        phone_number: salon?.phone_number ?? '',
      },
      { proviso: options.proviso.trim() || undefined, withName: options.withName, paper: '80mm' },
    ),
  );
}

/**
 * Prints a receipt. The receipt endpoint needs the staff's bearer token, which a plain link in a new tab would not
 * carry, so the HTML is fetched here and written into a window opened on the click (a window opened later is
 * blocked as a popup). The window is about:blank of this origin: it keeps the app's CSP (the receipt has no
 * script and inline styles only, which the CSP allows), and a blob: or iframe URL would need the CSP widened.
 */
export async function printReceipt(source: ReceiptSource, options: ReceiptOptions, opened = window.open('', '_blank')) {
  if (!opened) throw new Error('ポップアップがブロックされました。ブラウザの設定で許可してください。');
  opened.document.title = '領収書を読み込み中…';
  try {
    const html = await receiptPage(source, options);
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
export function ReceiptPrintButton({ source, size = 'md' }: { source: ReceiptSource; size?: 'md' | 'lg' }) {
  const [proviso, setProviso] = useState('');
  const [withName, setWithName] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [printing, setPrinting] = useState(false);
  const print = () => {
    setError(null);
    setPrinting(true);
    printReceipt(source, { proviso, withName })
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
