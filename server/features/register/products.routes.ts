import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import {
  createProductRequestSchema,
  productIdParamsSchema,
  productSchema,
  updateProductRequestSchema,
  type Product,
} from '#src/shared/schemas/register';
import type { AppContext } from '../../context';
import { products } from '../../db/schema';
import { notFound } from '../../http-errors';
import type { ZodApp } from '../../zod-app';
import { parseId } from './register-day';

const present = (row: typeof products.$inferSelect): Product => ({
  id: row.id,
  name: row.name,
  price: row.price,
  tax_rate: row.tax_rate === 8 ? 8 : 10,
});

/**
 * 商品 (docs/architecture.md#register-会計): any staff member reads the catalogue, the superuser changes it. A delete
 * retires the product (it leaves the list); receipts keep their lines, which are copies.
 */
export function registerProductRoutes(app: ZodApp, ctx: AppContext) {
  const ofSalon = (id: number) =>
    and(eq(products.id, id), eq(products.salon_id, ctx.salonId), eq(products.is_active, true));

  app.get('/api/admin/products/', {
    config: { auth: 'staff' },
    schema: { response: { 200: z.array(productSchema) } },
    handler: async () => {
      const rows = await ctx.db
        .select()
        .from(products)
        .where(and(eq(products.salon_id, ctx.salonId), eq(products.is_active, true)))
        .orderBy(asc(products.name), asc(products.id));
      return rows.map(present);
    },
  });

  app.post('/api/admin/products/', {
    config: { auth: 'superuser' },
    schema: { body: createProductRequestSchema, response: { 201: productSchema } },
    handler: async (request, reply) => {
      const [row] = await ctx.db
        .insert(products)
        .values({ salon_id: ctx.salonId, ...request.body })
        .returning();
      return reply.code(201).send(present(row!));
    },
  });

  app.patch('/api/admin/products/:id/', {
    config: { auth: 'superuser' },
    schema: { params: productIdParamsSchema, body: updateProductRequestSchema, response: { 200: productSchema } },
    handler: async (request) => {
      const id = parseId(request.params.id, REGISTER_MESSAGES.productNotFound);
      const [row] = await ctx.db
        .update(products)
        .set({ ...request.body, updated_at: sql`now()` })
        .where(ofSalon(id))
        .returning();
      if (!row) throw notFound(REGISTER_MESSAGES.productNotFound);
      return present(row);
    },
  });

  app.delete('/api/admin/products/:id/', {
    config: { auth: 'superuser' },
    schema: { params: productIdParamsSchema },
    handler: async (request, reply) => {
      const id = parseId(request.params.id, REGISTER_MESSAGES.productNotFound);
      const [row] = await ctx.db
        .update(products)
        .set({ is_active: false, updated_at: sql`now()` })
        .where(ofSalon(id))
        .returning({ id: products.id });
      if (!row) throw notFound(REGISTER_MESSAGES.productNotFound);
      return reply.code(204).send();
    },
  });
}
