import {
  convertCssVariables,
  deepMerge,
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  mergeMantineTheme,
  type ConvertCSSVariablesInput,
} from '@mantine/core';
import { cssVariablesResolver, theme } from './theme';

/**
 * The theme's CSS variables exactly as MantineProvider writes them into a <style> element at every page load (its
 * MantineCssVariables: the resolved variables less those @mantine/core/styles.css already defines), computed once
 * at build time instead: vite.config.ts puts them into index.html and AppProviders turns Mantine's own off. On a
 * slow phone that render, and the whole-page style recalculation its <style> caused, were part of the blocking time
 * before the first screen answers (docs/BENCHMARKS.md). `selector` defaults to Mantine's own (`:root, :host`).
 */
export function themeVariablesCss(selector?: string): string {
  const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
  const merged: ConvertCSSVariablesInput = deepMerge(
    defaultCssVariablesResolver(resolved),
    cssVariablesResolver(resolved),
  );
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
  const changed = (part: keyof ConvertCSSVariablesInput) => {
    const before: Record<string, string> = defaults[part];
    return Object.fromEntries(Object.entries(merged[part]).filter(([name, value]) => before[name] !== value));
  };
  return convertCssVariables(
    { variables: changed('variables'), light: changed('light'), dark: changed('dark') },
    selector,
  );
}
