/**
 * What a LINE message says, as plain text, for tests that read the LINE inbox, the fake Messaging API or outbox
 * rows: a text message's text; a Flex card's altText followed by what its bubble draws (buttons as
 * 「label: link」), the same reading as the dev inbox page (server/integrations/line/flex.ts).
 */
import { lineMessageReadableText } from '#server/integrations/line/flex';
import type { LineMessage } from '#server/integrations/line/messaging';

/** One message's text ('' for nothing readable). */
export function lineText(message: unknown): string {
  if (!message || typeof message !== 'object') return '';
  return lineMessageReadableText(message as LineMessage);
}

/** Every message of a push, a payload ({messages}) or an inbox entry, one after another. */
export function lineTexts(source: { messages?: readonly unknown[] } | readonly unknown[] | null | undefined): string {
  const messages = Array.isArray(source) ? source : ((source as { messages?: unknown[] } | null)?.messages ?? []);
  return messages.map(lineText).join('\n\n');
}
