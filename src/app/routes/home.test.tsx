import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { publicConfig } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '../../shared/messages';

describe('home page', () => {
  it('shows a loading state, then the salon name from GET /api/config/', async () => {
    server.use(
      http.get('/api/config/', async () => {
        await delay(20);
        return HttpResponse.json(publicConfig);
      }),
    );
    renderRoute('/');

    expect(screen.getByRole('status')).toHaveTextContent('読み込み中');
    expect(await screen.findByRole('heading', { level: 1, name: 'ネイルサロン 桜' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約する' })).toHaveAttribute('href', '/reserve');
    expect(screen.getByRole('link', { name: 'ご利用方法' })).toHaveAttribute('href', '/manual');
  });

  it('says in Japanese that the initial load failed, and can try again', async () => {
    let calls = 0;
    server.use(
      http.get('/api/config/', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 })
          : HttpResponse.json(publicConfig);
      }),
    );
    renderRoute('/');

    expect(await screen.findByText(MESSAGES.initialLoadFailed)).toBeInTheDocument();
    // The way into booking stays usable even without the salon's name.
    expect(screen.getByRole('link', { name: '予約する' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '再読み込み' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'ネイルサロン 桜' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.initialLoadFailed)).not.toBeInTheDocument();
  });

  it('shows the failure when the network is down', async () => {
    server.use(http.get('/api/config/', () => HttpResponse.error()));
    renderRoute('/');
    expect(await screen.findByText(MESSAGES.initialLoadFailed)).toBeInTheDocument();
  });
});
