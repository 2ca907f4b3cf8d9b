import { useMediaQuery } from '@mantine/hooks';

/** SPEC.md §9: 768 px is where phone layouts (cards) give way to tablet and desktop ones (tables). */
export const DESKTOP_QUERY = '(min-width: 48em)';

export function useIsDesktop(): boolean {
  return useMediaQuery(DESKTOP_QUERY, false, { getInitialValueInEffect: false });
}
