// Named .test.tsx so that the "components" project runs it: the theme is browser code.
import { DEFAULT_THEME, defaultCssVariablesResolver, luminance, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const defaults = defaultCssVariablesResolver(resolved);
const ours = cssVariablesResolver(resolved);
const variables: Record<string, string> = {
  ...defaults.variables,
  ...defaults.light,
  ...ours.variables,
  ...ours.light,
};

/** A colour as the light scheme draws it, following var(--…) references to the value. */
function value(colour: string): string {
  const reference = /^var\((--[\w-]+)\)$/.exec(colour);
  if (!reference) return colour;
  const next = variables[reference[1]!];
  if (next === undefined) throw new Error(`${reference[1]} is not defined`);
  return value(next);
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(value(a)), luminance(value(b))].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const WHITE = '#ffffff';
/** The admin pages' background (gray 0) and a hovered table row (gray 1): text on the page stands on these too. */
const PAGE_BACKGROUNDS = [WHITE, 'var(--mantine-color-gray-0)', 'var(--mantine-color-gray-1)'];
const COLOURS = Object.keys(DEFAULT_THEME.colors);

const variant = (color: string, name: string) =>
  resolved.variantColorResolver({ color, theme: resolved, variant: name, autoContrast: resolved.autoContrast });

describe('theme: WCAG AA (4.5:1) for text in every colour', () => {
  it.each(COLOURS)('filled %s: the text on the background', (color) => {
    const { background, color: text } = variant(color, 'filled');
    expect(contrast(text, background)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(COLOURS)('light %s: the text on its tint (alerts, light buttons)', (color) => {
    const { background, color: text } = variant(color, 'light');
    expect(contrast(text, background)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['red', 'pink', 'blue', 'gray'])('outline %s: the text on white', (color) => {
    expect(contrast(variant(color, 'outline').color, WHITE)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['red', 'blue', 'green', 'yellow'])('c="%s" text on white', (color) => {
    expect(contrast(`var(--mantine-color-${color}-text)`, WHITE)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['anchor', 'error', 'dimmed', 'placeholder'])('the %s colour on the page backgrounds', (name) => {
    for (const background of PAGE_BACKGROUNDS) {
      expect(contrast(`var(--mantine-color-${name})`, background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps the pink brand: primary buttons are pink 7 with white text', () => {
    const { background, color } = variant('pink', 'filled');
    expect(value(background)).toBe(DEFAULT_THEME.colors.pink[7]);
    expect(value(color)).toBe('#fff');
  });
});
