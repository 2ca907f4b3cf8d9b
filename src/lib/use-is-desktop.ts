import { useMediaQuery } from '@mantine/hooks';

/** docs/screens.md#formats: 768 px is where phone layouts (cards) give way to tablet and desktop ones (tables). */
const DESKTOP_QUERY = '(min-width: 48em)';

export function useIsDesktop(): boolean {
  return useMediaQuery(DESKTOP_QUERY, false, { getInitialValueInEffect: false });
}
