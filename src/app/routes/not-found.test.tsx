import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '../../shared/messages';

describe('404 page', () => {
  it('shows the SPEC title and a link back to the top for an unknown path', async () => {
    renderRoute('/no-such-page');

    expect(await screen.findByRole('heading', { level: 1, name: MESSAGES.pageNotFound })).toBeInTheDocument();
    expect(screen.getByText('404 - ページが見つかりません', { selector: 'h1' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
  });

  it('covers deep unknown paths too', async () => {
    renderRoute('/reserve/unknown/deep');
    expect(await screen.findByRole('heading', { name: MESSAGES.pageNotFound })).toBeInTheDocument();
  });
});
