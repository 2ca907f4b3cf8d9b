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
import type { SalonOption } from '#src/shared/schemas/menu';
import { MenuPage } from './menu-page';

const french: Service = { id: 3, name: 'フレンチ', price: '6600', duration_minutes: 90, salon: 1, options: [] };
const gradation: Service = {
  id: 4,
  name: 'グラデーション',
  price: '7700',
  duration_minutes: 90,
  salon: 1,
  options: [],
};
const care: Service = { id: 5, name: 'ケア', price: '3000', duration_minutes: 30, salon: 1, options: [] };
/** One ジェルオフ allowed by two menus. */
const gelOff: SalonOption = {
  id: 7,
  name: 'ジェルオフ',
  price: 1100,
  duration_minutes: 30,
  service_ids: [3, 4],
  sort_order: 0,
};

interface Call {
  method: string;
  path: string;
  body: unknown;
  auth: string | null;
}

/**
 * The menu API in memory: the salon's options under /api/admin/options/, and GET /api/services/ listing each one
 * under every menu that allows it, as the server does. Writes are recorded.
 */
function serveMenu(services: Service[], initial: SalonOption[]) {
  let options = initial.map((option) => ({ ...option, service_ids: [...option.service_ids] }));
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
  server.use(
    http.get('/api/services/', async () => {
      await delay(10);
      return HttpResponse.json(
        services.map((service) => ({
          ...service,
          options: options
            .filter((option) => option.service_ids.includes(service.id))
            .map(({ id, name, price, duration_minutes }) => ({ id, name, price: String(price), duration_minutes })),
        })),
      );
    }),
    http.get('/api/admin/options/', () => HttpResponse.json(options)),
    http.post('/api/admin/options/', async ({ request }) => {
      await record(request);
      const body = (await request.json()) as Omit<SalonOption, 'id' | 'sort_order'>;
      const created = { ...body, id: nextId++, sort_order: options.length };
      options = [...options, created];
      return HttpResponse.json(created, { status: 201 });
    }),
    http.patch('/api/admin/options/:id/', async ({ request, params }) => {
      await record(request);
      const body = (await request.json()) as Partial<SalonOption>;
      options = options.map((option) => (option.id === Number(params.id) ? { ...option, ...body } : option));
      return HttpResponse.json(options.find((option) => option.id === Number(params.id)));
    }),
    http.delete('/api/admin/options/:id/', async ({ request, params }) => {
      await record(request, false);
      options = options.filter((option) => option.id !== Number(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return writes;
}

const optionList = () => screen.findByRole('list', { name: 'オプション一覧' }, LAZY);
const menusBox = (dialog: HTMLElement) => within(dialog).getByRole('group', { name: 'このオプションを使えるメニュー' });

afterEach(async () => (await loadNotifications()).clean());

describe('the salon’s options on the menu screen (オプション)', () => {
  it('lists each option once with its price, time and menus, and under every menu that allows it', async () => {
    serveMenu([french, gradation, care], [gelOff]);
    renderWithProviders(<MenuPage />);
    const items = within(await optionList()).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('ジェルオフ+30分・¥1,100使えるメニュー：フレンチ、グラデーション');
    for (const menu of ['フレンチ', 'グラデーション']) {
      const under = await screen.findByRole('list', { name: `${menu}のオプション` });
      expect(within(under).getByRole('listitem')).toHaveTextContent('ジェルオフ+30分・¥1,100');
    }
    expect(screen.queryByRole('list', { name: 'ケアのオプション' })).not.toBeInTheDocument();
    // The lists under the menus only show: one place adds options, so none is added twice.
    expect(screen.getAllByRole('button', { name: 'オプションを追加' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'オプション「ジェルオフ」を編集' })).toHaveLength(1);
  });

  it('adds an option for the menus ticked, with the admin token; it shows under each of them', async () => {
    storeAdminTokens();
    const writes = serveMenu([french, gradation, care], []);
    renderWithProviders(<MenuPage />);
    expect(await screen.findByText(/オプションがまだありません/, {}, LAZY)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'オプションを追加' }));
    const dialog = await screen.findByRole('dialog', { name: 'オプションを追加' });
    expect(within(dialog).getByLabelText(/料金/)).toHaveValue('0');
    expect(within(dialog).getByLabelText(/追加時間（分）/)).toHaveValue('0');
    const menus = menusBox(dialog);
    expect(
      within(menus)
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).checked),
    ).toEqual([false, false, false]);

    await userEvent.type(within(dialog).getByLabelText(/オプション名/), 'アート1本');
    await userEvent.clear(within(dialog).getByLabelText(/料金/));
    await userEvent.type(within(dialog).getByLabelText(/料金/), '550');
    await userEvent.clear(within(dialog).getByLabelText(/追加時間（分）/));
    await userEvent.type(within(dialog).getByLabelText(/追加時間（分）/), '10');
    // Ticked in another order than the menu's: sent in menu order.
    await userEvent.click(within(menus).getByRole('checkbox', { name: 'ケア' }));
    await userEvent.click(within(menus).getByRole('checkbox', { name: 'フレンチ' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          method: 'POST',
          path: '/api/admin/options/',
          body: { name: 'アート1本', price: 550, duration_minutes: 10, service_ids: [3, 5] },
          auth: 'Bearer admin-access-token',
        },
      ]),
    );
    expect(await screen.findByText('オプションを追加しました。')).toBeInTheDocument();
    expect(within(await optionList()).getByRole('listitem')).toHaveTextContent('使えるメニュー：フレンチ、ケア');
    expect(await screen.findByRole('list', { name: 'ケアのオプション' })).toHaveTextContent('アート1本');
    expect(screen.getByRole('list', { name: 'フレンチのオプション' })).toHaveTextContent('アート1本');
    expect(screen.queryByRole('list', { name: 'グラデーションのオプション' })).not.toBeInTheDocument();
  });

  it('edits the price and the menus of a shared option with one PATCH', async () => {
    storeAdminTokens();
    const writes = serveMenu([french, gradation, care], [gelOff]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'オプション「ジェルオフ」を編集' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: 'オプションを編集' });
    expect(within(dialog).getByLabelText(/オプション名/)).toHaveValue('ジェルオフ');
    const menus = menusBox(dialog);
    expect(within(menus).getByRole('checkbox', { name: 'フレンチ' })).toBeChecked();
    expect(within(menus).getByRole('checkbox', { name: 'グラデーション' })).toBeChecked();
    expect(within(menus).getByRole('checkbox', { name: 'ケア' })).not.toBeChecked();

    const price = within(dialog).getByLabelText(/料金/);
    await userEvent.clear(price);
    await userEvent.type(price, '1320');
    await userEvent.click(within(menus).getByRole('checkbox', { name: 'フレンチ' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          method: 'PATCH',
          path: '/api/admin/options/7/',
          body: { name: 'ジェルオフ', price: 1320, duration_minutes: 30, service_ids: [4] },
          auth: 'Bearer admin-access-token',
        },
      ]),
    );
    expect(await screen.findByText('使えるメニュー：グラデーション')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'グラデーションのオプション' })).toHaveTextContent('¥1,320');
    await waitFor(() => expect(screen.queryByRole('list', { name: 'フレンチのオプション' })).not.toBeInTheDocument());
  });

  it('checks the minutes before sending and shows the server’s field messages, the menus’ too', async () => {
    const writes = serveMenu([care], []);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'オプションを追加' }, LAZY));
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
      http.post('/api/admin/options/', () =>
        HttpResponse.json(
          {
            detail: MESSAGES.optionServicesInvalid,
            code: 'invalid',
            fields: { service_ids: [MESSAGES.optionServicesInvalid] },
          },
          { status: 400 },
        ),
      ),
    );
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '10');
    await userEvent.click(within(menusBox(dialog)).getByRole('checkbox', { name: 'ケア' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MESSAGES.optionServicesInvalid);
    // Under the menus' checkboxes too, as their field's error.
    expect(within(dialog).getAllByText(MESSAGES.optionServicesInvalid)).toHaveLength(2);
  });

  it('deletes an option only after confirming, and keeps it when the staff member goes back', async () => {
    storeAdminTokens();
    const writes = serveMenu([french, gradation], [gelOff]);
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'オプション「ジェルオフ」を削除' }, LAZY));
    let dialog = await screen.findByRole('dialog', { name: '確認' });
    expect(dialog).toHaveTextContent(MESSAGES.adminOptionDeleteQuestion);
    await userEvent.click(within(dialog).getByRole('button', { name: '戻る' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '確認' })).not.toBeInTheDocument());
    expect(writes).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'オプション「ジェルオフ」を削除' }));
    dialog = await screen.findByRole('dialog', { name: '確認' });
    await userEvent.click(within(dialog).getByRole('button', { name: '削除する' }));
    await waitFor(() =>
      expect(writes).toEqual([
        { method: 'DELETE', path: '/api/admin/options/7/', body: undefined, auth: 'Bearer admin-access-token' },
      ]),
    );
    expect(await screen.findByText('「ジェルオフ」を削除しました。')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('list', { name: 'フレンチのオプション' })).not.toBeInTheDocument());
    expect(screen.queryByRole('list', { name: 'グラデーションのオプション' })).not.toBeInTheDocument();
    expect(screen.getByText(/オプションがまだありません/)).toBeInTheDocument();
  });

  it('says 削除に失敗しました。 and keeps the option when the delete fails', async () => {
    serveMenu([french], [{ ...gelOff, service_ids: [3] }]);
    server.use(
      http.delete('/api/admin/options/:id/', () =>
        HttpResponse.json({ detail: MESSAGES.optionNotFound, code: 'not_found' }, { status: 404 }),
      ),
    );
    renderWithProviders(<MenuPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'オプション「ジェルオフ」を削除' }, LAZY));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: '削除する' }),
    );
    expect(await screen.findByText(MESSAGES.adminDeleteFailed)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'オプション一覧' })).toHaveTextContent('ジェルオフ');
  });

  it('says オプションの読み込みに失敗しました。 with a retry when the options cannot be loaded', async () => {
    serveMenu([french], []);
    let failing = true;
    server.use(
      http.get('/api/admin/options/', () =>
        failing
          ? HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 })
          : HttpResponse.json([{ ...gelOff, service_ids: [3] }]),
      ),
    );
    renderWithProviders(<MenuPage />);
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.adminOptionsLoadFailed);
    // The menus still show.
    expect(screen.getByRole('list', { name: 'メニュー一覧' })).toHaveTextContent('フレンチ');
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: '再読み込み' }));
    expect(within(await optionList()).getByRole('listitem')).toHaveTextContent('使えるメニュー：フレンチ');
  });
});
