import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cacheComputedStyleUntilTheDocumentChanges } from './computed-style-cache';
import { fakeMatchMedia } from './media';
import { server } from './msw-server';
import { skipReactOwnerStacks } from './react-owner-stacks';

// jsdom lacks the layout APIs Mantine calls; these stand-ins are what Mantine's own test setup uses.
Object.defineProperty(window, 'matchMedia', { writable: true, configurable: true, value: fakeMatchMedia(() => false) });

class ResizeObserverStub implements ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;

// Mantine's Combobox and ScrollArea call these; jsdom does not implement them.
window.HTMLElement.prototype.scrollIntoView = function scrollIntoView() {};
window.scrollTo = (() => {}) as typeof window.scrollTo;
cacheComputedStyleUntilTheDocumentChanges(window);
skipReactOwnerStacks();

// findBy/waitFor wait up to 5 s instead of 1 s: a shared two-core CI machine under load (a fresh-clone run of
// 2026-11-26 took 1,214 s instead of 693 s) makes a form's answer arrive later; a passing test waits no longer.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
  document.cookie.split(';').forEach((cookie) => {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
afterAll(() => server.close());
