import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../../tests/setup/render';

describe('admin area', () => {
  it('is reached through the lazy /admin route', async () => {
    renderRoute('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'スタッフ管理画面' })).toBeInTheDocument();
    expect(screen.getByText('管理画面は現在準備中です。')).toBeInTheDocument();
  });

  it('owns every path below /admin', async () => {
    renderRoute('/admin/reservations');
    expect(await screen.findByRole('heading', { name: 'スタッフ管理画面' })).toBeInTheDocument();
  });
});
