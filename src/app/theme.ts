import {
  createTheme,
  darken,
  defaultVariantColorsResolver,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * WCAG AA (4.5:1 for normal text) is settled here once for the whole app, so that screens use plain colour names
 * (`color="red"`, `<Anchor>`, `c="dimmed"`) and never pick shades for contrast themselves.
 */
const AA = 4.5;
const WHITE = '#ffffff';

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Shade 9, darkened in 5 % steps until it reaches AA on `background` (Mantine's green 9 is 3.8:1 on green 1). */
function readableOn(background: string, tuple: MantineColorsTuple): string {
  let colour: string = tuple[9];
  for (let amount = 0.05; contrast(colour, background) < AA; amount += 0.05) colour = darken(tuple[9], amount);
  return colour;
}

/**
 * Colours whose primary shade (7) is under AA with white (red 3.8:1, blue 4.2:1) but whose shade 9 is not: they are
 * drawn at shade 9 wherever they carry white text or stand as text on the page. The others that fail (green,
 * yellow) keep their shade and take black text (autoContrast below).
 */
function deepened(tuple: MantineColorsTuple): boolean {
  return contrast(tuple[7], WHITE) < AA && contrast(tuple[9], WHITE) >= AA;
}

/** autoContrast judges the filled variant by shade 7; a deepened colour is shade 9 on screen and wants white. */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colours = defaultVariantColorsResolver(input);
  const tuple = input.color ? input.theme.colors[input.color] : undefined;
  if (input.variant === 'filled' && tuple && deepened(tuple)) colours.color = 'var(--mantine-color-white)';
  return colours;
};

const FONT_FAMILY =
  '-apple-system, BlinkMacSystemFont, "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Noto Sans CJK JP", Meiryo, sans-serif';

/** Mantine's dialog close buttons have no accessible name of their own (axe: button-name). */
const CLOSE_BUTTON = { closeButtonProps: { 'aria-label': '閉じる' } };

/**
 * A soft rose palette for a nail salon. Shade 7 is the primary: white text on it and it as text on white both
 * reach AA, which the lighter pinks do not.
 */
export const theme = createTheme({
  primaryColor: 'pink',
  primaryShade: { light: 7, dark: 5 },
  // Black or white text on a filled colour, whichever contrasts more: at a luminance of 0.179 both give the same
  // ratio, so every filled badge and button reaches AA (Mantine's default 0.3 puts white on red 7, 3.8:1).
  autoContrast: true,
  luminanceThreshold: 0.179,
  variantColorResolver,
  defaultRadius: 'md',
  fontFamily: FONT_FAMILY,
  headings: { fontFamily: FONT_FAMILY, fontWeight: '700' },
  // Plain objects, not Modal.extend(): the theme is in the entry chunk and must not pull the components into it.
  components: {
    Modal: { defaultProps: CLOSE_BUTTON },
    Drawer: { defaultProps: CLOSE_BUTTON },
  },
});

/** Light-scheme colours that Mantine draws under AA; the app has no dark scheme. */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const light: Record<string, string> = {
    // Gray 6 (3.3:1 on white) for dimmed text and gray 5 (2.1:1) for placeholders, which the file and date
    // pickers show as real text: one softer grey at 5.2:1 for both.
    '--mantine-color-dimmed': '#666d75',
    '--mantine-color-placeholder': '#666d75',
    // Red 6 is 3.3:1 on white.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // Pink 7 is 4.6:1 on white but 4.4:1 on the admin pages' gray 0 background.
    '--mantine-color-anchor': `var(--mantine-color-${resolved.primaryColor}-8)`,
  };
  for (const [name, tuple] of Object.entries(resolved.colors)) {
    if (deepened(tuple)) {
      Object.assign(light, {
        [`--mantine-color-${name}-filled`]: tuple[9],
        [`--mantine-color-${name}-filled-hover`]: darken(tuple[9], 0.15),
        [`--mantine-color-${name}-outline`]: tuple[9],
        [`--mantine-color-${name}-text`]: tuple[9],
      });
    } else if (contrast(tuple[7], WHITE) < AA) {
      light[`--mantine-color-${name}-text`] = readableOn(WHITE, tuple);
    }
    // The light variant (alerts, light buttons) writes shade 9 on shade 1.
    if (contrast(tuple[9], tuple[1]) < AA) light[`--mantine-color-${name}-light-color`] = readableOn(tuple[1], tuple);
  }
  return { variables: {}, light, dark: {} };
};
