import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/**
 * A soft rose palette for a nail salon. Shade 7 is the primary: white text on it and it as text on white both
 * reach WCAG AA (4.5:1), which the lighter pinks do not.
 */
export const theme = createTheme({
  primaryColor: 'pink',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Noto Sans CJK JP", Meiryo, sans-serif',
  headings: {
    fontFamily:
      '-apple-system, BlinkMacSystemFont, "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Noto Sans CJK JP", Meiryo, sans-serif',
    fontWeight: '700',
  },
  other: {
    /** The LINE brand green for "log in with LINE" buttons. */
    lineGreen: '#06C755',
  },
});

/**
 * Mantine's light "dimmed" text (gray 6, 3.3:1 on white) fails WCAG AA; this grey keeps the softer look at 5.2:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#666d75' },
  dark: {},
});
