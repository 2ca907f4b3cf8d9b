/**
 * DELETE /api/admin/customers/{id}/line-link/: a superuser removes a customer's LINE link, e.g. one made to the
 * wrong LINE account. Whoever held that LINE account loses the customer's bookings and messages: the link goes, the
 * customer's sessions end (their refresh tokens are revoked; an access token runs out within minutes), and a
 * customer_line_unlinks row keeps which LINE account it was, who removed it and when. Nothing else of the
 * customer changes; a new link needs a new link URL (POST …/generate-line-link/, superusers only).
 */
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { customerIdParamsSchema } from '#src/shared/schemas/customers';
import type { AppContext } from '../../context';
import { customerLineUnlinks, customers, refreshTokens } from '../../db/schema';
import { conflict, notFound } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';

export function registerCustomerLineLinkRoutes(app: ZodApp, ctx: AppContext) {
  app.delete('/api/admin/customers/:id/line-link/', {
    config: { auth: 'superuser' },
    schema: { params: customerIdParamsSchema },
    handler: async (request, reply) => {
      await unlinkCustomerLine(ctx, { customerId: request.params.id, staffId: staffOf(request).id });
      return reply.code(204).send();
    },
  });
}

/** The customer's row is locked, so two removals (or a removal and a link completing) cannot both decide. */
async function unlinkCustomerLine(ctx: AppContext, input: { customerId: number; staffId: number }) {
  await ctx.db.transaction(async (tx) => {
    const [customer] = await tx
      .select({
        id: customers.id,
        line_user_id: customers.line_user_id,
        line_display_name: customers.line_display_name,
      })
      .from(customers)
      .where(and(eq(customers.id, input.customerId), eq(customers.salon_id, ctx.salonId)))
      .for('update');
    if (!customer) throw notFound(MESSAGES.customerNotFound);
    if (!customer.line_user_id) throw conflict(SERVER_MESSAGES.customerNotLinked, 'not_linked');
    const now = ctx.now();
    await tx.insert(customerLineUnlinks).values({
      salon_id: ctx.salonId,
      customer_id: customer.id,
      line_user_id: customer.line_user_id,
      line_display_name: customer.line_display_name,
      unlinked_by_staff_id: input.staffId,
      unlinked_at: now,
    });
    await tx
      .update(customers)
      .set({ line_user_id: null, line_display_name: '', line_picture_url: '', updated_at: now })
      .where(and(eq(customers.id, customer.id), isNotNull(customers.line_user_id)));
    await tx
      .update(refreshTokens)
      .set({ revoked_at: now })
      .where(
        and(
          eq(refreshTokens.audience, 'customer'),
          eq(refreshTokens.subject_id, customer.id),
          isNull(refreshTokens.revoked_at),
        ),
      );
  });
}
