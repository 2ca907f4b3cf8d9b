/**
 * The LINE card every notice is sent as: a Flex Message bubble with a title, the notice's lines and one button
 * that opens the page it is about. The altText is the notice as plain text, so that chat lists, phone
 * notifications and LINE versions that cannot draw the bubble read the whole notice.
 */
import { FLEX_ALT_TEXT_MAX, type FlexComponent, type FlexMessage } from '../integrations/line/flex';

interface LinkCard {
  /** The notice as plain text; cut at LINE's limit (FLEX_ALT_TEXT_MAX) when longer. */
  altText: string;
  title: string;
  /** One text each; '' draws a separator (a paragraph break). */
  lines: readonly string[];
  button: { label: string; url: string };
}

/** The salon's accent (the app's theme colour, src/app/theme.ts). */
const ACCENT = '#c2255c';

export function linkCard(card: LinkCard): FlexMessage {
  const body: FlexComponent[] = [
    { type: 'text', text: card.title, weight: 'bold', size: 'md', wrap: true },
    ...card.lines.map((line): FlexComponent =>
      line.trim() === ''
        ? { type: 'separator', margin: 'md' }
        : { type: 'text', text: line, size: 'sm', wrap: true, margin: 'sm' },
    ),
  ];
  return {
    type: 'flex',
    altText: fitAltText(card.altText),
    contents: {
      type: 'bubble',
      body: { type: 'box', layout: 'vertical', contents: body },
      footer: {
        type: 'box',
        layout: 'vertical',
        contents: [
          {
            type: 'button',
            style: 'primary',
            color: ACCENT,
            action: { type: 'uri', label: card.button.label, uri: card.button.url },
          },
        ],
      },
    },
  };
}

/** At most FLEX_ALT_TEXT_MAX UTF-16 units, never splitting a surrogate pair, ending in … when cut. */
export function fitAltText(text: string): string {
  if (text.length <= FLEX_ALT_TEXT_MAX) return text;
  let cut = text.slice(0, FLEX_ALT_TEXT_MAX - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}
