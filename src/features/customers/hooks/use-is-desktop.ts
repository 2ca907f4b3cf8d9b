import { useMediaQuery } from '@mantine/hooks';

/** SPEC.md §9: 768 px is where phone layouts (cards) give way to tablet and desktop ones (tables). */
export function useIsDesktop(): boolean {
  return useMediaQuery('(min-width: 48em)', false, { getInitialValueInEffect: false });
}
