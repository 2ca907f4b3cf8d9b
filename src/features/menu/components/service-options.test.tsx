import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { LAZY, storeAdminTokens } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { loadNotifications } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { Service, ServiceOption } from '#src/shared/schemas/booking';
import { MenuPage } from './menu-page';

const stone: ServiceOption = { id: 7, name: 'ストーン', price: '1100', duration_minutes: 30 };
const gel: Service = { id: 3, name: 'ジェルネイル', price: '6600', duration_minutes: 90, salon: 1, options: [stone] };
const care: Service = { id: 4, name: 'ケア', price: '3000', duration_minutes: 30, salon: 1, options: [] };

interface Call {
  method: string;
  path: string;
  body: unknown;
  auth: string | null;
}

/** The menu API in memory with its option calls: GET lists services with their options; writes are recorded. */
function serveMenu(initial: Service[]) {
  let services = initial.map((service) => ({ ...service, options: [...service.options] }));
  const writes: Call[] = [];
  let nextId = 50;
  const record = async (request: Request, body = true) => {
    writes.push({
      method: request.method,
      path: new URL(request.url).pathname,
      body: body ? await request.clone().json() : undefined,
      auth: request.headers.get('authorization'),
    });
  };
  const withOptions = (serviceId: number, change: (options: ServiceOption[]) => ServiceOption[]) => {
    services = services.map((s) => (s.id === serviceId ? { ...s, options: change(s.options) } : s));
  };
  server.use(
    http.get('/api/services/', async () => {
      await delay(10);
      return HttpResponse.json(services);
    }),
    http.post('/api/services/:id/options/', async ({ request, params }) => {
      await record(request);
      const body = (await request.json()) as { name: string; price: number; duration_minutes: number };
      const created = {
        id: nextId++,
        name: body.name,
        price: String(body.price),
        duration_minutes: body.duration_minutes,
      };
      withOptions(Number(params.id), (options) => [...options, created]);
      return HttpResponse.json(created, { status: 201 });
    }),
    http.patch('/api/services/:id/options/:optionId/', async ({ request, params }) => {
      await record(request);
      const body = (await request.json()) as Partial<{ name: string; price: number; duration_minutes: number }>;
      withOptions(Number(params.id), (options) =>
        options.map((o) =>
          o.id === Number(params.optionId)
            ? { ...o, ...body, price: body.price === undefined ? o.price : String(body.price) }
            : o,
        ),
      );
      const service = services.find((s) => s.id === Number(params.id));
      return HttpResponse.json(service?.options.find((o) => o.id === Number(params.optionId)));
    }),
    http.delete('/api/services/:id/options/:optionId/', async ({ request, params }) => {
      await record(request, false);
      withOptions(Number(params.id), (options) => options.filter((o) => o.id !== Number(params.optionId)));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return writes;
}

afterEach(async () => (await loadNotifications()).clean());

describe('options on the menu screen (オプション)', () => {
  it('lists each service’s options with +minutes and yen, and says when there are none', async () => {
    serveMenu([gel, care]);
    renderWithProviders(<MenuPage />);
    const options = await screen.findByRole('list', { name: 'ジェルネイルのオプション' }, LAZY);
    const items = within(options).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('ストーン+30分・¥1,100');
    const careItem = screen
      .getAllByRole('listitem')
      .find((item) => within(item).queryByText('ケア', { selector: 'p' }) !== null)!;
    expect(within(careItem).getByText('オプションはありません。')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'ケアのオプション' })).not.toBeInTheDocument();
  });

  it('adds an option to its service with the admin token, and the list shows it', async () => {
    storeAdminTokens();
    const writes = serveMenu([gel, care]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'ケアにオプションを追加' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: 'オプションを追加' });
    expect(dialog).toHaveTextContent('メニュー：ケア');
    expect(within(dialog).getByLabelText(/料金/)).toHaveValue('0');
    const minutes = within(dialog).getByLabelText(/追加時間（分）/);
    expect(minutes).toHaveValue('0');

    await userEvent.type(within(dialog).getByLabelText(/オプション名/), 'パラフィンパック');
    await userEvent.clear(within(dialog).getByLabelText(/料金/));
    await userEvent.type(within(dialog).getByLabelText(/料金/), '1500');
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '15');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          method: 'POST',
          path: '/api/services/4/options/',
          body: { name: 'パラフィンパック', price: 1500, duration_minutes: 15 },
          auth: 'Bearer admin-access-token',
        },
      ]),
    );
    const list = await screen.findByRole('list', { name: 'ケアのオプション' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('パラフィンパック+15分・¥1,500');
    expect(await screen.findByText('オプションを追加しました。')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'オプションを追加' })).not.toBeInTheDocument();
  });

  it('checks the minutes before sending and shows the server’s field messages', async () => {
    const writes = serveMenu([care]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'ケアにオプションを追加' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: 'オプションを追加' });
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(within(dialog).getByText(MESSAGES.fieldRequired)).toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText(/オプション名/), 'アート');
    const minutes = within(dialog).getByLabelText(/追加時間（分）/);
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '7');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(within(dialog).getByText(MESSAGES.optionDurationInvalid)).toBeInTheDocument();
    expect(writes).toEqual([]);

    server.use(
      http.post('/api/services/:id/options/', () =>
        HttpResponse.json(
          { detail: MESSAGES.invalidInput, code: 'invalid', fields: { price: [MESSAGES.priceTooHigh] } },
          { status: 400 },
        ),
      ),
    );
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '10');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText(MESSAGES.priceTooHigh)).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MESSAGES.invalidInput);
  });

  it('edits an option with PATCH', async () => {
    storeAdminTokens();
    const writes = serveMenu([gel]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'オプション「ストーン」を編集' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: 'オプションを編集' });
    expect(within(dialog).getByLabelText(/オプション名/)).toHaveValue('ストーン');
    const minutes = within(dialog).getByLabelText(/追加時間（分）/);
    expect(minutes).toHaveValue('30');
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '45');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          method: 'PATCH',
          path: '/api/services/3/options/7/',
          body: { name: 'ストーン', price: 1100, duration_minutes: 45 },
          auth: 'Bearer admin-access-token',
        },
      ]),
    );
    expect(await screen.findByText('+45分・¥1,100')).toBeInTheDocument();
  });

  it('deletes an option only after confirming, and keeps it when the staff member goes back', async () => {
    storeAdminTokens();
    const writes = serveMenu([gel]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'オプション「ストーン」を削除' }, LAZY));
    let dialog = await screen.findByRole('dialog', { name: '確認' });
    expect(dialog).toHaveTextContent(MESSAGES.adminOptionDeleteQuestion);
    await userEvent.click(within(dialog).getByRole('button', { name: '戻る' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '確認' })).not.toBeInTheDocument());
    expect(writes).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'オプション「ストーン」を削除' }));
    dialog = await screen.findByRole('dialog', { name: '確認' });
    await userEvent.click(within(dialog).getByRole('button', { name: '削除する' }));
    await waitFor(() =>
      expect(writes).toEqual([
        { method: 'DELETE', path: '/api/services/3/options/7/', body: undefined, auth: 'Bearer admin-access-token' },
      ]),
    );
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'ジェルネイルのオプション' })).not.toBeInTheDocument(),
    );
    expect(screen.getByText('オプションはありません。')).toBeInTheDocument();
    expect(await screen.findByText('「ストーン」を削除しました。')).toBeInTheDocument();
  });

  it('says 削除に失敗しました。 and keeps the option when the delete fails', async () => {
    serveMenu([gel]);
    server.use(
      http.delete('/api/services/:id/options/:optionId/', () =>
        HttpResponse.json({ detail: MESSAGES.optionNotFound, code: 'not_found' }, { status: 404 }),
      ),
    );
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'オプション「ストーン」を削除' }, LAZY));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: '削除する' }),
    );
    expect(await screen.findByText(MESSAGES.adminDeleteFailed)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'ジェルネイルのオプション' })).toHaveTextContent('ストーン');
  });
});
