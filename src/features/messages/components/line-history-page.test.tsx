import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { staffProfile, superuserProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import type { LineMessageItem } from '#src/shared/schemas/messages';
import { LineHistoryPage } from './line-history-page';

const routes = [
  { path: '/admin/line-history', element: <LineHistoryPage /> },
  { path: '/admin/customers/:customerId/history', element: <LineHistoryPage /> },
];

function message(overrides: Partial<LineMessageItem>): LineMessageItem {
  return {
    id: 'm1',
    sent_at: '2025-06-01T10:00:00+09:00',
    sender_type: 'customer',
    customer_id: 7,
    customer_name: '山田 花子',
    customer_line_picture_url: '',
    message: '',
    image_url: '',
    broadcast_id: null,
    recipient_count: null,
    ...overrides,
  };
}

const HISTORY = [
  message({
    id: 'm1',
    message: '予約の変更をお願いします',
    customer_line_picture_url: 'https://example.com/hanako.png',
  }),
  message({ id: 'm2', sender_type: 'admin', message: '承知しました', sent_at: '2025-06-01T10:05:00+09:00' }),
  message({
    id: 'm3',
    customer_id: 8,
    customer_name: '佐藤 次郎',
    message: '写真です',
    image_url: 'http://salon.test/media/in.jpg',
    sent_at: '2025-06-02T09:00:00+09:00',
  }),
  message({
    id: 'b1',
    sender_type: 'admin',
    customer_id: null,
    customer_name: '一斉送信（2名）',
    message: '夏のキャンペーン',
    image_url: 'http://salon.test/media/out.png',
    broadcast_id: 1,
    recipient_count: 2,
    sent_at: '2025-06-02T12:00:00+09:00',
  }),
];

beforeEach(() => {
  server.use(http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)));
});

function requestsTo(path: string) {
  const urls: URL[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname === path) urls.push(url);
  });
  return urls;
}

describe('message history (LINE履歴)', () => {
  it('shows a chat view with date separators, admin messages right and customers left with picture or placeholder', async () => {
    server.use(http.get('/api/admin/line-history/', () => HttpResponse.json(HISTORY)));
    renderRoute('/admin/line-history', { routes });

    expect(screen.getByRole('heading', { level: 1, name: 'LINE履歴' })).toBeInTheDocument();
    expect(await screen.findByText('予約の変更をお願いします')).toBeInTheDocument();
    const separators = screen.getAllByRole('separator').map((el) => el.getAttribute('aria-label'));
    expect(separators).toEqual(['2025年6月1日(日)', '2025年6月2日(月)']);

    const firstDay = screen.getByRole('list', { name: '2025年6月1日(日)のメッセージ' });
    const [fromCustomer, fromAdmin] = within(firstDay).getAllByRole('listitem');
    expect(fromCustomer).toHaveAttribute('data-sender', 'customer');
    expect(within(fromCustomer!).getByRole('img', { name: '山田 花子' })).toHaveAttribute(
      'src',
      'https://example.com/hanako.png',
    );
    expect(fromCustomer).toHaveTextContent('山田 花子・10:00');
    expect(fromAdmin).toHaveAttribute('data-sender', 'admin');
    expect(fromAdmin).toHaveTextContent('山田 花子へ・10:05');

    const secondDay = screen.getByRole('list', { name: '2025年6月2日(月)のメッセージ' });
    const [withoutPicture, broadcast] = within(secondDay).getAllByRole('listitem');
    // No picture: Mantine's placeholder avatar with the initial.
    expect(within(withoutPicture!).queryByRole('img', { name: '佐藤 次郎' })).toBeNull();
    expect(withoutPicture).toHaveTextContent('佐');
    const received = within(withoutPicture!).getByRole('link', { name: '受信した画像（新しいタブで開く）' });
    expect(received).toHaveAttribute('href', 'http://salon.test/media/in.jpg');
    expect(received).toHaveAttribute('target', '_blank');
    expect(received).toHaveAttribute('rel', 'noopener noreferrer');
    expect(broadcast).toHaveTextContent('一斉送信（2名）へ・12:00');
    expect(within(broadcast!).getByRole('link', { name: '送信した画像（新しいタブで開く）' })).toHaveAttribute(
      'target',
      '_blank',
    );
  });

  it('takes the query from the URL (チャット履歴 of a customer) and applies the filter panel, leaving empty values out', async () => {
    const calls = requestsTo('/api/admin/line-history/');
    server.use(http.get('/api/admin/line-history/', () => HttpResponse.json([])));
    const { router } = renderRoute(`/admin/line-history?query=${encodeURIComponent('山田 花子')}`, { routes });

    expect(await screen.findByText('メッセージはありません。')).toBeInTheDocument();
    expect(calls[0]!.searchParams.get('query')).toBe('山田 花子');
    expect([...calls[0]!.searchParams.keys()]).toEqual(['query']);
    expect(screen.getByLabelText('キーワード（顧客名・本文）')).toHaveValue('山田 花子');

    fireEvent.change(screen.getByLabelText('開始日'), { target: { value: '2025-06-01' } });
    fireEvent.change(screen.getByLabelText('終了日'), { target: { value: '2025-06-30' } });
    await userEvent.clear(screen.getByLabelText('キーワード（顧客名・本文）'));
    await userEvent.click(screen.getByRole('button', { name: '絞り込む' }));

    await waitFor(() => expect(calls).toHaveLength(2));
    expect(Object.fromEntries(calls[1]!.searchParams)).toEqual({ start_date: '2025-06-01', end_date: '2025-06-30' });
    expect(router.state.location.search).toBe('?start_date=2025-06-01&end_date=2025-06-30');
  });

  it('asks for one customer on customers/{id}/history', async () => {
    const calls = requestsTo('/api/admin/line-history/');
    server.use(http.get('/api/admin/line-history/', () => HttpResponse.json([])));
    renderRoute('/admin/customers/7/history', { routes });
    await screen.findByText('メッセージはありません。');
    expect(calls[0]!.searchParams.get('customer_id')).toBe('7');
    expect(screen.getByRole('link', { name: 'すべての履歴を見る' })).toHaveAttribute('href', '/admin/line-history');
  });

  it('shows an error when the history cannot be loaded', async () => {
    server.use(
      http.get('/api/admin/line-history/', () => HttpResponse.json({ detail: 'x', code: 'e' }, { status: 500 })),
    );
    renderRoute('/admin/line-history', { routes });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.adminHistoryLoadFailed);
  });
});

describe('bulk-send panel', () => {
  async function openPanel() {
    server.use(http.get('/api/admin/line-history/', () => HttpResponse.json([])));
    renderRoute('/admin/line-history', { routes });
    await screen.findByText('メッセージはありません。');
    await userEvent.click(screen.getByRole('button', { name: /一斉送信/ }));
    // The panel is shown once Mantine's collapse transition has run.
    await screen.findByRole('button', { name: '全顧客に送信' });
    return screen.getByLabelText('一斉送信メッセージ');
  }

  async function sendAndConfirm() {
    await userEvent.click(screen.getByRole('button', { name: '全顧客に送信' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '送信する' }));
  }

  it('needs text or an image', async () => {
    const text = await openPanel();
    expect(screen.getByRole('button', { name: '全顧客に送信' })).toBeDisabled();
    await userEvent.type(text, '   ');
    expect(screen.getByRole('button', { name: '全顧客に送信' })).toBeDisabled();
  });

  it('sends to every customer after a confirmation and says 全顧客に送信しました', async () => {
    let body: FormData | undefined;
    let historyLoads = 0;
    const text = await openPanel();
    server.use(
      http.get('/api/admin/line-history/', () => {
        historyLoads += 1;
        return HttpResponse.json([]);
      }),
      http.post('/api/admin/send-bulk-message/', async ({ request }) => {
        body = await request.formData();
        return HttpResponse.json({ broadcast_id: 3, queued: 12, batches: 1 }, { status: 201 });
      }),
    );
    await userEvent.type(text, '夏のキャンペーンのお知らせ');
    await sendAndConfirm();

    expect(await screen.findByText(MESSAGES.adminBulkSent)).toBeInTheDocument();
    expect(screen.getByText('送信対象: 12名')).toBeInTheDocument();
    expect(body?.get('text')).toBe('夏のキャンペーンのお知らせ');
    expect(body?.has('image')).toBe(false);
    expect(text).toHaveValue('');
    // The history is reloaded so that the bulk send shows up.
    await waitFor(() => expect(historyLoads).toBeGreaterThan(0));
  });

  it('says 送信に失敗しました when the server refuses', async () => {
    const text = await openPanel();
    server.use(
      http.post('/api/admin/send-bulk-message/', () =>
        HttpResponse.json({ detail: MESSAGES.messageOrImageRequired, code: 'bad_request' }, { status: 400 }),
      ),
    );
    await userEvent.type(text, 'こんにちは');
    await sendAndConfirm();
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.adminBulkSendFailed);
    expect(text).toHaveValue('こんにちは');
  });
});

describe('bulk send by an ordinary staff member', () => {
  it('says it goes to their own customers and how many it reached', async () => {
    server.use(
      http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)),
      http.get('/api/admin/line-history/', () => HttpResponse.json([])),
      http.post('/api/admin/send-bulk-message/', () =>
        HttpResponse.json({ broadcast_id: 4, queued: 3, batches: 1 }, { status: 201 }),
      ),
    );
    renderRoute('/admin/line-history', { routes });
    await screen.findByText('メッセージはありません。');
    await userEvent.click(screen.getByRole('button', { name: /一斉送信/ }));
    const send = await screen.findByRole('button', { name: '担当のお客様に送信' });
    expect(screen.queryByRole('button', { name: '全顧客に送信' })).not.toBeInTheDocument();
    expect(screen.getByText('LINE連携済みの担当のお客様に同じメッセージを送信します。')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('一斉送信メッセージ'), 'お知らせ');
    await userEvent.click(send);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('LINE連携済みの担当のお客様にこの内容を送信しますか？');
    await userEvent.click(within(dialog).getByRole('button', { name: '送信する' }));
    expect(await screen.findByText('担当のお客様 3 名に送信しました')).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.adminBulkSent)).not.toBeInTheDocument();
  });

  it('says nothing was sent when no customer is linked', async () => {
    server.use(
      http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)),
      http.get('/api/admin/line-history/', () => HttpResponse.json([])),
      http.post('/api/admin/send-bulk-message/', () =>
        HttpResponse.json({ broadcast_id: null, queued: 0, batches: 0 }, { status: 200 }),
      ),
    );
    renderRoute('/admin/line-history', { routes });
    await screen.findByText('メッセージはありません。');
    await userEvent.click(screen.getByRole('button', { name: /一斉送信/ }));
    await userEvent.type(await screen.findByLabelText('一斉送信メッセージ'), 'お知らせ');
    await userEvent.click(screen.getByRole('button', { name: '担当のお客様に送信' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '送信する' }));
    expect(await screen.findByText(MESSAGES.adminBulkNoRecipients)).toBeInTheDocument();
  });
});

describe("reply box in one customer's thread", () => {
  it('is offered only for one customer, posts to their send-message endpoint and reloads the thread', async () => {
    let posted: FormData | undefined;
    let loads = 0;
    server.use(
      http.get('/api/admin/line-history/', () => {
        loads += 1;
        return HttpResponse.json(HISTORY.slice(0, 2));
      }),
      http.post('/api/admin/customers/7/send-message/', async ({ request }) => {
        posted = await request.formData();
        return HttpResponse.json(message({ id: 'm9', sender_type: 'admin', message: '明日お待ちしております' }), {
          status: 201,
        });
      }),
    );
    renderRoute('/admin/customers/7/history', { routes });
    const box = await screen.findByRole('textbox', { name: '返信メッセージ' });
    const send = screen.getByRole('button', { name: '送信' });
    expect(send).toBeDisabled();
    await userEvent.type(box, '明日お待ちしております');
    await userEvent.click(send);
    expect(await screen.findByText(MESSAGES.adminMessageSent)).toBeInTheDocument();
    expect(posted?.get('text')).toBe('明日お待ちしております');
    expect(box).toHaveValue('');
    await waitFor(() => expect(loads).toBeGreaterThan(1));
  });

  it('shows the server error, and is not offered on the whole history', async () => {
    server.use(
      http.get('/api/admin/line-history/', () => HttpResponse.json(HISTORY)),
      http.post('/api/admin/customers/7/send-message/', () =>
        HttpResponse.json({ detail: 'LINE未連携の顧客です。', code: 'bad_request' }, { status: 400 }),
      ),
    );
    const first = renderRoute('/admin/customers/7/history', { routes });
    await userEvent.type(await screen.findByRole('textbox', { name: '返信メッセージ' }), 'こんにちは');
    await userEvent.click(screen.getByRole('button', { name: '送信' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      MESSAGES.adminMessageSendFailed('LINE未連携の顧客です。'),
    );
    first.unmount();

    renderRoute('/admin/line-history', { routes });
    await screen.findByText('予約の変更をお願いします');
    expect(screen.queryByRole('textbox', { name: '返信メッセージ' })).not.toBeInTheDocument();
  });
});
