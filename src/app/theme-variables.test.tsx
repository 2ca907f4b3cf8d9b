// Named .test.tsx so that the "components" project runs it: MantineProvider renders in jsdom.
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from './providers';
import { cssVariablesResolver, theme } from './theme';
import { themeVariablesCss } from './theme-variables';

describe('the theme variables computed at build time', () => {
  it('are exactly what MantineProvider would write at every page load', () => {
    const { container } = render(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <p>本文</p>
      </MantineProvider>,
      { container: document.head.appendChild(document.createElement('div')) },
    );
    const written = document.querySelector('style[data-mantine-styles]:not([data-mantine-styles="classes"])');
    expect(written?.innerHTML).toBeTruthy();
    expect(themeVariablesCss()).toBe(written!.innerHTML);
    // The theme changes something, or nothing would be worth a <style>: the darker text colours, for one.
    expect(themeVariablesCss()).toContain('--mantine-color-dimmed: #666d75');
    container.remove();
  });

  it('are not written again by the app’s providers (index.html has them)', () => {
    render(
      <AppProviders>
        <p>本文</p>
      </AppProviders>,
    );
    expect(document.querySelector('style[data-mantine-styles]:not([data-mantine-styles="classes"])')).toBeNull();
  });
});
