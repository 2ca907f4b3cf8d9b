import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { storeAdminTokens } from '#tests/setup/admin-fixtures';
import type { Product } from '#src/shared/schemas/register';
import { ProductsPage } from './products-page';

const routes = [{ path: '/admin/products', element: <ProductsPage /> }];

describe('商品管理', () => {
  it('adds a reduced-rate product, edits a price and retires a product after a confirmation', async () => {
    storeAdminTokens();
    let products: Product[] = [{ id: 1, name: 'ハンドクリーム', price: 1650, tax_rate: 10 }];
    const sent: Array<{ method: string; path: string; body: unknown }> = [];
    server.use(
      http.get('/api/admin/products/', () => HttpResponse.json(products)),
      http.post('/api/admin/products/', async ({ request }) => {
        const body = (await request.json()) as Omit<Product, 'id'>;
        sent.push({ method: 'POST', path: '', body });
        products = [...products, { id: 2, ...body }];
        return HttpResponse.json(products.at(-1), { status: 201 });
      }),
      http.patch('/api/admin/products/:id/', async ({ request, params }) => {
        const body = (await request.json()) as Partial<Product>;
        sent.push({ method: 'PATCH', path: String(params.id), body });
        products = products.map((product) => (product.id === Number(params.id) ? { ...product, ...body } : product));
        return HttpResponse.json(products[0]);
      }),
      http.delete('/api/admin/products/:id/', ({ params }) => {
        sent.push({ method: 'DELETE', path: String(params.id), body: null });
        products = products.filter((product) => product.id !== Number(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderRoute('/admin/products', { routes });

    await screen.findByRole('row', { name: /ハンドクリーム ¥1,650 10%/ });
    await user.click(screen.getByRole('button', { name: '商品を追加' }));
    const dialog = await screen.findByRole('dialog', { name: '商品を追加' });
    await user.type(within(dialog).getByRole('textbox', { name: /商品名/ }), 'ハーブティー');
    await user.type(within(dialog).getByRole('textbox', { name: /価格/ }), '540');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: '税率' }), '8%（軽減税率）');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await screen.findByRole('row', { name: /ハーブティー ¥540 8%（軽減）/ })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'ハンドクリームを編集' }));
    const edit = await screen.findByRole('dialog', { name: '商品を編集' });
    const price = within(edit).getByRole('textbox', { name: /価格/ });
    await user.clear(price);
    await user.type(price, '1800');
    await user.click(within(edit).getByRole('button', { name: '保存' }));
    expect(await screen.findByRole('row', { name: /ハンドクリーム ¥1,800/ })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'ハーブティーを販売終了' }));
    const confirm = await screen.findByRole('dialog', { name: '確認' });
    await user.click(within(confirm).getByRole('button', { name: '販売終了' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /ハーブティー/ })).not.toBeInTheDocument());
    expect(sent).toEqual([
      { method: 'POST', path: '', body: { name: 'ハーブティー', price: 540, tax_rate: 8 } },
      { method: 'PATCH', path: '1', body: { name: 'ハンドクリーム', price: 1800, tax_rate: 10 } },
      { method: 'DELETE', path: '2', body: null },
    ]);
  });
});
