/** jsdom has no matchMedia (Mantine's useMediaQuery calls it): a MediaQueryList stand-in, `matches` per query. */
export function fakeMatchMedia(matches: (query: string) => boolean): typeof window.matchMedia {
  return (query: string): MediaQueryList => ({
    media: query,
    matches: matches(query),
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}
