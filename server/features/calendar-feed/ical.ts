/**
 * A small iCalendar (RFC 5545) writer: components made of properties, written with CRLF line endings, TEXT
 * values escaped and every content line folded at 75 octets. Pure: no clock, no database (ical.test.ts).
 */

/** One content line: `name` may carry parameters already (`DTSTART;TZID=Asia/Tokyo`); `value` is written as is. */
export type IcalProperty = readonly [name: string, value: string];

export interface IcalComponent {
  name: string;
  properties: IcalProperty[];
  components?: IcalComponent[];
}

const CRLF = '\r\n';
const MAX_OCTETS = 75;

/**
 * A TEXT value: backslash, semicolon and comma escaped, any line break as `\n`. Other control characters are not
 * allowed in TEXT and are dropped (a stray one from a customer's input must not break the calendar).
 */
export function escapeText(text: string): string {
  return (
    text
      .replace(/\r\n|\r|\n/g, '\n')
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/[\\;,\n]/g, (character) => (character === '\n' ? '\\n' : `\\${character}`))
  );
}

/** A parameter value: quoted when it holds a character that would end it (`:`, `;`, `,`); quotes cannot appear. */
export function paramValue(value: string): string {
  const clean = value.replace(/["\r\n]/g, '');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/**
 * One content line folded as RFC 5545 3.1 asks: no line longer than 75 octets (UTF-8), each continuation starting
 * with one space. A break falls only between characters, never inside a character's UTF-8 bytes.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of line) {
    const size = Buffer.byteLength(character, 'utf8');
    // Continuation lines start with the space, which counts towards their 75.
    const limit = parts.length === 0 ? MAX_OCTETS : MAX_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += character;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** A UTC date-time: `20300110T000000Z`. */
export function utcDateTime(instant: Date): string {
  return `${instant.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/** A floating local date-time from `yyyy-MM-ddTHH:mm:ss` (paired with a TZID parameter): `20300110T100000`. */
export function localDateTime(local: string): string {
  return local.slice(0, 19).replace(/[-:]/g, '');
}

/** A UTC offset in milliseconds as `+0900` / `-0330`. */
export function utcOffset(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  const sign = offsetMs < 0 ? '-' : '+';
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;
}

function contentLines(component: IcalComponent): string[] {
  return [
    `BEGIN:${component.name}`,
    ...component.properties.map(([name, value]) => `${name}:${value}`),
    ...(component.components ?? []).flatMap(contentLines),
    `END:${component.name}`,
  ];
}

/** The whole stream: every line folded and ended with CRLF (the last one too). */
export function writeIcal(component: IcalComponent): string {
  return contentLines(component)
    .map((line) => `${foldLine(line)}${CRLF}`)
    .join('');
}
