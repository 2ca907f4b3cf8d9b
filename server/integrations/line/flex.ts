/**
 * LINE Flex Messages (the Messaging API's `type: 'flex'` message: an altText shown in chat lists and
 * notifications, and a container, here a bubble, drawn in the chat). Two jobs: check a message the way LINE
 * checks it, so that the emulator's inbox refuses what LINE would refuse (400), and read any message as plain
 * text (the dev inbox page, the e-mail fallback, tests).
 */
import type { messagingApi } from '@line/bot-sdk';
import type { LineMessage } from './messaging';

export type FlexMessage = messagingApi.FlexMessage;
export type FlexComponent = messagingApi.FlexComponent;

/**
 * The longest altText we send, in UTF-16 code units (how LINE counts text). LINE long documented 400 and has
 * since allowed more; staying at 400 is accepted by both.
 */
export const FLEX_ALT_TEXT_MAX = 400;

/** LINE's limit on a URI action's uri. */
const URI_MAX = 1000;

/**
 * Why LINE would refuse the message, or null. `appOrigin` (the app's public origin, or a test of a link's URL): its
 * links may be http (a developer's machine); any other link must be https, as LINE requires of a URI action.
 */
export function lineMessageProblem(message: LineMessage, appOrigin?: string | ((url: URL) => boolean)): string | null {
  if (message.type === 'text') {
    return typeof message.text === 'string' && message.text.length > 0 && message.text.length <= 5000
      ? null
      : 'text must be 1-5000 characters';
  }
  if (message.type !== 'flex') return null;
  if (typeof message.altText !== 'string' || message.altText.trim() === '') return 'altText is required';
  if (message.altText.length > FLEX_ALT_TEXT_MAX) return `altText must be at most ${FLEX_ALT_TEXT_MAX} characters`;
  const container = message.contents as { type?: string } | undefined;
  if (container?.type !== 'bubble' && container?.type !== 'carousel') return 'contents must be a bubble or carousel';
  for (const uri of actionUris(container)) {
    if (uri.length === 0 || uri.length > URI_MAX) return 'uri must be 1-1000 characters';
    if (!allowedUri(uri, appOrigin)) return `uri must be https (or the app's own origin): ${uri}`;
  }
  return null;
}

function allowedUri(uri: string, appOrigin: string | ((url: URL) => boolean) | undefined): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  if (!appOrigin) return false;
  if (typeof appOrigin === 'function') return appOrigin(url);
  try {
    return url.origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

/** Every `uri` of an action anywhere in the container. */
function actionUris(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(actionUris);
  if (!node || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  const own =
    record.type === 'uri' && 'uri' in record ? [typeof record.uri === 'string' ? record.uri : ''] : ([] as string[]);
  return [
    ...own,
    ...Object.entries(record)
      .filter(([key]) => key !== 'uri')
      .flatMap(([, value]) => actionUris(value)),
  ];
}

/**
 * A message as plain text: a text message as it is; a flex message by its altText, then the bubble's texts and
 * its buttons as 「label: uri」 (what a reader sees and can tap); other types by their altText or their type.
 */
export function lineMessageReadableText(message: LineMessage): string {
  if (message.type === 'text') return message.text;
  if (message.type === 'flex') {
    const drawn = flexTexts(message.contents);
    return [message.altText, ...(drawn.length > 0 ? ['', '---', ...drawn] : [])].join('\n');
  }
  return 'altText' in message && typeof message.altText === 'string' ? message.altText : `[${message.type}]`;
}

/** The texts of a container in reading order (header, hero, body, footer), buttons as 「label: uri」. */
export function flexTexts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(flexTexts);
  if (!node || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  if (record.type === 'text' && typeof record.text === 'string') return [record.text];
  if (record.type === 'button') {
    const action = record.action as { label?: string; uri?: string } | undefined;
    return [[action?.label, action?.uri].filter(Boolean).join(': ')];
  }
  if (record.type === 'bubble') return ['header', 'hero', 'body', 'footer'].flatMap((part) => flexTexts(record[part]));
  if (record.type === 'carousel' || record.type === 'box') return flexTexts(record.contents);
  return [];
}
