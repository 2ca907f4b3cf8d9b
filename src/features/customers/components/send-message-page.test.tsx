import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clearNotifications, recordRequests } from '#tests/setup/admin-fixtures';
import { customerFixture } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { SendMessagePage } from './send-message-page';

const routes = [
  { path: '/admin/customers/:customerId/send-message', element: <SendMessagePage /> },
  { path: '/admin/customers/:customerId/line', element: <SendMessagePage /> },
  { path: '/admin/customers/:customerId', element: <p>customer detail</p> },
];

const LINKED = customerFixture({ is_line_linked: true, line_user_id: 'U1', line_display_name: 'はなこ' });

// jsdom has no object URLs; the preview only needs a string.
const { createObjectURL, revokeObjectURL } = URL;
beforeAll(() => {
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => {};
});
afterAll(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

function serveCustomer(detail = LINKED) {
  server.use(http.get('/api/admin/customers/7/', () => HttpResponse.json(detail)));
}

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'nail.png', { type: 'image/png' });

function fileInput(): HTMLInputElement {
  return document.querySelector('input[type="file"]')!;
}

afterEach(() => clearNotifications());

describe('send-message screen', () => {
  it('has an 8-row text area and a send button disabled while both text and image are empty', async () => {
    serveCustomer();
    renderRoute('/admin/customers/7/send-message', { routes });

    expect(await screen.findByRole('heading', { level: 1, name: '山田 花子様へメッセージを送信' })).toBeInTheDocument();
    expect(screen.getByLabelText('メッセージ')).toHaveAttribute('rows', '8');
    expect(screen.getByRole('button', { name: '送信する' })).toBeDisabled();
    await userEvent.type(screen.getByLabelText('メッセージ'), 'a');
    expect(screen.getByRole('button', { name: '送信する' })).toBeEnabled();
  });

  it('says メッセージまたは画像を入力してください。 for blank text and sends nothing', async () => {
    serveCustomer();
    const requests = recordRequests();
    renderRoute('/admin/customers/7/line', { routes });
    await userEvent.type(await screen.findByLabelText('メッセージ'), '   ');
    await userEvent.click(screen.getByRole('button', { name: '送信する' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.messageOrImageRequired);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('previews and removes an attached image', async () => {
    serveCustomer();
    renderRoute('/admin/customers/7/send-message', { routes });
    await screen.findByLabelText('メッセージ');
    await userEvent.upload(fileInput(), png());
    expect(screen.getByRole('img', { name: '添付画像のプレビュー' })).toHaveAttribute('src', 'blob:preview');
    expect(screen.getByRole('button', { name: '送信する' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: '画像を削除' }));
    expect(screen.queryByRole('img', { name: '添付画像のプレビュー' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '送信する' })).toBeDisabled();
  });

  it('asks この内容で送信しますか？, sends text and image as multipart, then returns to the customer', async () => {
    serveCustomer();
    const requests = recordRequests();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/admin/customers/7/send-message/', async () => {
        await gate;
        return HttpResponse.json(
          {
            id: 'm1',
            sent_at: '2025-06-01T10:00:00+09:00',
            sender_type: 'admin',
            customer_id: 7,
            customer_name: '山田 花子',
            customer_line_picture_url: '',
            message: 'ご来店ありがとうございました',
            image_url: 'http://salon.test/media/a.png',
            broadcast_id: null,
            recipient_count: null,
          },
          { status: 201 },
        );
      }),
    );
    const { router } = renderRoute('/admin/customers/7/send-message', { routes });
    await userEvent.type(await screen.findByLabelText('メッセージ'), 'ご来店ありがとうございました');
    await userEvent.upload(fileInput(), png());
    await userEvent.click(screen.getByRole('button', { name: '送信する' }));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.adminMessageSendConfirm);
    await userEvent.click(within(dialog).getByRole('button', { name: '送信する' }));
    expect(await screen.findByRole('button', { name: '送信中...' })).toBeDisabled();
    release();

    expect(await screen.findByText(MESSAGES.adminMessageSent)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers/7'));
    const post = requests.find((r) => r.method === 'POST')!;
    expect(post.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await post.formData();
    expect(form.get('text')).toBe('ご来店ありがとうございました');
    // jsdom's File reaches Node's fetch as a plain Blob (named 'blob'); a browser keeps the name. The bytes arrive.
    const image = form.get('image') as Blob;
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });

  it('does not send when the confirmation is cancelled', async () => {
    serveCustomer();
    const requests = recordRequests();
    renderRoute('/admin/customers/7/send-message', { routes });
    await userEvent.type(await screen.findByLabelText('メッセージ'), 'こんにちは');
    await userEvent.click(screen.getByRole('button', { name: '送信する' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it.each([
    [
      'the server error',
      { detail: SERVER_MESSAGES.imageUnsupported, code: 'unsupported_media_type' },
      415,
      `メッセージの送信に失敗しました: ${SERVER_MESSAGES.imageUnsupported}`,
    ],
    ['サーバーエラー without one', '', 502, 'メッセージの送信に失敗しました: サーバーエラー'],
  ])('reports a failed send with %s and stays on the screen', async (_name, body, status, message) => {
    serveCustomer();
    server.use(
      http.post('/api/admin/customers/7/send-message/', () =>
        typeof body === 'string' ? new HttpResponse(body, { status }) : HttpResponse.json(body, { status }),
      ),
    );
    const { router } = renderRoute('/admin/customers/7/send-message', { routes });
    await userEvent.type(await screen.findByLabelText('メッセージ'), 'こんにちは');
    await userEvent.click(screen.getByRole('button', { name: '送信する' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '送信する' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/customers/7/send-message');
    expect(screen.getByLabelText('メッセージ')).toHaveValue('こんにちは');
  });

  it('explains that an unlinked customer cannot receive messages', async () => {
    serveCustomer(customerFixture());
    renderRoute('/admin/customers/7/send-message', { routes });
    expect(await screen.findByText(MESSAGES.customerNotLineLinked)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '送信する' })).toBeDisabled();
  });
});
