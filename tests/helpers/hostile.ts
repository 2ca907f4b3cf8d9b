/**
 * Arbitraries for the hostile-input suite: values a route's zod schema accepts (read through its JSON Schema, so
 * that requests get past validation and reach services and the database), and values meant to break things.
 */
import fc from 'fast-check';
import { z } from 'zod';

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

/** The JSON Schema of a zod schema as a request sees it (before coercion and transforms). */
export function jsonSchemaOf(schema: unknown): JsonSchema | null {
  if (!schema) return null;
  return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** A plausible value for a field: what the schema accepts, unless `hints` knows better values for that name. */
export function plausible(
  name: string,
  schema: JsonSchema,
  hints: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<unknown> {
  const hint = hints[name];
  if (hint) return hint;
  if (schema.anyOf?.length) return fc.oneof(...schema.anyOf.map((option) => plausible(name, option, hints)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string': {
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      if (schema.pattern)
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? Infinity));
      return fc.string({ minLength: Math.min(schema.minLength ?? 0, maxLength), maxLength });
    }
    case 'integer': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
      return fc.integer({ min, max: Math.max(min, schema.maximum ?? 100_000) });
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items ? plausible(name, schema.items, hints) : fc.jsonValue(), {
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object':
      return fc.record(
        Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([key, property]) => [key, plausible(key, property, hints)]),
        ),
      );
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** JSON text to be sent as is, where a value would go. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The JSON text of a value (a RawJson as it is). */
export function jsonText(value: unknown): string {
  return value instanceof RawJson ? value.text : (JSON.stringify(value) ?? 'null');
}

/** About 300 kB of UTF-8: inside the 1 MB body limit, far beyond any field's limit. */
const HUGE = 'あ'.repeat(100_000);

/** Strings that have broken servers before. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  "' OR '1'='1",
  "'; drop table reservations; --",
  '" OR ""="',
  '\u0000',
  'a\u0000b',
  '\\',
  '%00',
  '%',
  '\r\nBcc: evil@example.com',
  'x\r\nX-Injected: yes',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '\ud800',
  '\ufeff',
  '\u202e',
  '𠮷野家🍣'.repeat(20),
  '１２３',
  '١٢٣',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1f',
  ' 1 ',
  '1.0',
  '2030-02-30',
  '2030-02-01T25:00:00',
  '9999-12-31T23:30:00',
  '{{7*7}}',
  '${7*7}',
  '__proto__',
  'constructor',
  'a'.repeat(10_000),
  HUGE,
];

/** A value of any JSON type that no schema expects in that place. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53 + 1,
      1e308,
      -1e308,
      [],
      {},
      [null],
      { $gt: '' },
      ['a', 'b'],
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  // Deep nesting: a parser, validator or hash that recurses without a limit runs out of stack. Kept as text (a
  // value this deep would overflow the test's own JSON.stringify).
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(50, 5_000, 100_000, 300_000)
      .map((depth) => new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
  },
);

/** Keys that pollute prototypes when a server merges a body into an object naively. */
export const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype'];
export const POLLUTION = { polluted: 'yes', prototype: { polluted: 'yes' } };

/**
 * A JSON object written by hand from [key, value] pairs, so that a key like "__proto__" appears in the text
 * (an object literal would set the prototype instead) and a key may appear twice.
 */
export function rawJsonObject(entries: Array<[string, unknown]>): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${jsonText(value)}`).join(',')}}`;
}

/** Bodies that are not JSON at all, or JSON in a shape nobody expects. */
export const MALFORMED_BODIES = [
  '',
  '{',
  '{"a":',
  '[',
  'undefined',
  'NaN',
  "{'single': 'quotes'}",
  '{"a":1,}',
  '\ufeff{}',
  '\u0000',
  'null',
  '[]',
  '"text"',
  '12',
  'true',
  '{"a":"\\ud800"}',
  `{"a":"${'\\u0000'.repeat(3)}"}`,
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"a":1e999}',
  '{"a":-}',
];
