import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { LAZY, storeAdminTokens } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { loadNotifications } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import { MenuPage } from './menu-page';

const gel: Service = { id: 3, name: 'ジェルネイル', price: '6600', duration_minutes: 90, salon: 1, options: [] };
const care: Service = { id: 4, name: 'ケア', price: '3000', duration_minutes: 30, salon: 1, options: [] };

interface Call {
  method: string;
  path: string;
  body: unknown;
  auth: string | null;
}

/** A menu API in memory: GET lists, POST/PATCH/DELETE change it, and every write is recorded. */
function serveMenu(initial: Service[]) {
  let services = [...initial];
  const writes: Call[] = [];
  const record = async (request: Request, body = true) => {
    writes.push({
      method: request.method,
      path: new URL(request.url).pathname,
      body: body ? await request.json() : undefined,
      auth: request.headers.get('authorization'),
    });
  };
  server.use(
    http.get('/api/services/', async () => {
      await delay(10);
      return HttpResponse.json(services);
    }),
    http.post('/api/services/', async ({ request }) => {
      await record(request.clone());
      const body = (await request.json()) as { name: string; price: number; duration_minutes: number };
      const created = {
        id: 99,
        name: body.name,
        price: String(body.price),
        duration_minutes: body.duration_minutes,
        salon: 1,
        options: [],
      };
      services = [...services, created];
      return HttpResponse.json(created, { status: 201 });
    }),
    http.patch('/api/services/:id/', async ({ request, params }) => {
      await record(request.clone());
      const body = (await request.json()) as Partial<{ name: string; price: number; duration_minutes: number }>;
      services = services.map((s) =>
        s.id === Number(params.id)
          ? { ...s, ...body, price: body.price === undefined ? s.price : String(body.price) }
          : s,
      );
      return HttpResponse.json(services.find((s) => s.id === Number(params.id)));
    }),
    http.delete('/api/services/:id/', async ({ request, params }) => {
      await record(request, false);
      services = services.filter((s) => s.id !== Number(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return writes;
}

afterEach(async () => (await loadNotifications()).clean());

describe('menu management (メニュー管理)', () => {
  it('lists the services with duration text and yen', async () => {
    serveMenu([gel, care]);
    renderWithProviders(<MenuPage />);
    expect(screen.getByRole('status')).toHaveTextContent('読み込み中');
    const list = await screen.findByRole('list', { name: 'メニュー一覧' }, LAZY);
    expect(within(list).getByText('ジェルネイル')).toBeInTheDocument();
    expect(within(list).getByText('1時間半・¥6,600')).toBeInTheDocument();
    expect(within(list).getByText('30分・¥3,000')).toBeInTheDocument();
  });

  it('adds a service with the defaults ¥0 and 90 minutes, sending the admin token', async () => {
    storeAdminTokens();
    const writes = serveMenu([]);
    renderWithProviders(<MenuPage />);
    expect(await screen.findByText(/メニューがまだありません/, {}, LAZY)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'メニューを追加' }));
    const dialog = await screen.findByRole('dialog', { name: 'メニューを追加' });
    expect(within(dialog).getByLabelText(/料金/)).toHaveValue('0');
    expect(within(dialog).getByLabelText(/^所要時間/, { selector: 'input' })).toHaveValue('90分');

    await userEvent.type(within(dialog).getByLabelText(/メニュー名/), 'フットジェル');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          method: 'POST',
          path: '/api/services/',
          // 再来店のご案内 left blank: none.
          body: { name: 'フットジェル', price: 0, duration_minutes: 90, rebook_cycle_days: null },
          auth: 'Bearer admin-access-token',
        },
      ]),
    );
    expect(await screen.findByText('フットジェル')).toBeInTheDocument();
  });

  it('takes any duration from 15 to 240 minutes in steps of 5, and refuses others on the form', async () => {
    storeAdminTokens();
    const writes = serveMenu([]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'メニューを追加' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: 'メニューを追加' });
    await userEvent.type(within(dialog).getByLabelText(/メニュー名/), 'ケア');
    const duration = within(dialog).getByLabelText(/^所要時間/, { selector: 'input' });
    // The arrow keys move in steps of 5 (from the default 90).
    await userEvent.click(duration);
    await userEvent.keyboard('{ArrowUp}');
    expect(duration).toHaveValue('95分');
    for (const refused of ['72', '10', '245']) {
      await userEvent.clear(duration);
      await userEvent.type(duration, refused);
      await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
      expect(await within(dialog).findByText(MESSAGES.durationInvalid)).toBeInTheDocument();
    }
    expect(writes).toEqual([]);
    await userEvent.clear(duration);
    await userEvent.type(duration, '75');
    expect(within(dialog).getByText(/1時間15分/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(writes.map((write) => write.body)).toEqual([
        { name: 'ケア', price: 0, duration_minutes: 75, rebook_cycle_days: null },
      ]),
    );
  });

  it('requires a name and shows the server’s field messages on a refused save', async () => {
    const writes = serveMenu([]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'メニューを追加' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: 'メニューを追加' });
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(within(dialog).getByText(MESSAGES.fieldRequired)).toBeInTheDocument();
    expect(writes).toEqual([]);

    server.use(
      http.post('/api/services/', () =>
        HttpResponse.json(
          { detail: MESSAGES.invalidInput, code: 'invalid', fields: { price: [MESSAGES.priceTooHigh] } },
          { status: 400 },
        ),
      ),
    );
    await userEvent.type(within(dialog).getByLabelText(/メニュー名/), '特別コース');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText(MESSAGES.priceTooHigh)).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MESSAGES.invalidInput);
  });

  it('edits a service with PATCH', async () => {
    storeAdminTokens();
    const writes = serveMenu([gel]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'ジェルネイルを編集' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: 'メニューを編集' });
    const price = within(dialog).getByLabelText(/料金/);
    expect(price).toHaveValue('6,600');
    await userEvent.clear(price);
    await userEvent.type(price, '7000');
    const cycle = within(dialog).getByLabelText(/再来店のご案内（日数）/);
    // Out of 7–180 days: refused on the form, nothing sent.
    await userEvent.type(cycle, '5');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText(MESSAGES.rebookCycleInvalid)).toBeInTheDocument();
    expect(writes).toEqual([]);
    await userEvent.clear(cycle);
    await userEvent.type(cycle, '21');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          method: 'PATCH',
          path: '/api/services/3/',
          body: { name: 'ジェルネイル', price: 7000, duration_minutes: 90, rebook_cycle_days: 21 },
          auth: 'Bearer admin-access-token',
        },
      ]),
    );
    expect(await screen.findByText('1時間半・¥7,000')).toBeInTheDocument();
  });

  it('deletes after asking このメニューを削除しますか？', async () => {
    storeAdminTokens();
    const writes = serveMenu([gel, care]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'ケアを削除' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: '確認' });
    expect(dialog).toHaveTextContent(MESSAGES.adminMenuDeleteQuestion);
    await userEvent.click(within(dialog).getByRole('button', { name: '削除する' }));
    await waitFor(() =>
      expect(writes).toEqual([
        { method: 'DELETE', path: '/api/services/4/', body: undefined, auth: 'Bearer admin-access-token' },
      ]),
    );
    await waitFor(() => expect(screen.queryByText('ケア')).not.toBeInTheDocument());
  });

  it('says 削除に失敗しました。 when the delete fails', async () => {
    serveMenu([gel]);
    server.use(
      http.delete('/api/services/:id/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'ジェルネイルを削除' }, LAZY));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: '削除する' }),
    );
    expect(await screen.findByText(MESSAGES.adminDeleteFailed)).toBeInTheDocument();
  });

  it('says メニューの読み込みに失敗しました。 when the list cannot be loaded', async () => {
    server.use(
      http.get('/api/services/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    renderWithProviders(<MenuPage />);
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.adminMenuLoadFailed);
  });
});
