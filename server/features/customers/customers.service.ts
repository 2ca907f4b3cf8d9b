import {
  consumeLinkToken,
  findUsableLinkToken,
  hashLinkToken,
  insertLinkToken,
  newLinkToken,
} from '../../db/link-tokens';
import { TOKEN_AUDIENCES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { TokenPair } from '#src/shared/schemas/auth';
import { z } from 'zod';
import {
  adminCustomerSchema,
  type AdminCustomer,
  type CustomerLineLink,
  type CustomerLinkRequest,
  type CustomerListQuery,
  type CustomerPatchRequest,
} from '#src/shared/schemas/customers';
import { instantToLocalDateTime } from '#src/shared/time';
import type { AppContext } from '../../context';
import { SQLSTATE, sqlState } from '../../db/client';
import { incidentCountsOf, NO_INCIDENTS, type IncidentCounts } from '../../db/incidents';
import { approvalRuleOf, ruleHoldsBack, type ApprovalRule } from '../../scheduling/approval-rule';
import { findCustomerForStaff, ownBookingsOnly } from '../../db/scope';
import { ApiHttpError, badRequest, conflict, forbidden, notFound } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import { encodeJson, type EncodedJson } from '../../zod-app';
import * as repo from './customers.repository';
import { isNameAlone, nameSearchAnswer } from './name-search';

/** docs/architecture.md: a customer link token works once, within 7 days. */
const CUSTOMER_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** GET /api/admin/customers/'s answer. */
export const adminCustomerListSchema = z.array(adminCustomerSchema);

type StaffReservationRows = Parameters<AppContext['reservations']['presentAllForStaff']>[0];

function presentCustomer(
  row: repo.CustomerRow,
  incidents: IncidentCounts = NO_INCIDENTS,
  rule: ApprovalRule = { autoConfirm: false, threshold: null },
): AdminCustomer {
  return {
    id: row.id,
    name: row.name,
    furigana: row.furigana,
    email: row.email,
    phone_number: row.phone_number,
    notes: row.notes,
    line_user_id: row.line_user_id,
    line_display_name: row.line_display_name,
    line_picture_url: row.line_picture_url,
    is_line_linked: Boolean(row.line_user_id),
    assigned_staff_id: row.assigned_staff_id,
    rebook_prompts_enabled: row.rebook_prompts_enabled,
    no_show_count: incidents.no_show_count,
    late_cancel_count: incidents.late_cancel_count,
    needs_approval: ruleHoldsBack(rule, incidents),
    updated_at: row.updated_at.toISOString(),
  };
}

const linkInvalid = () =>
  badRequest(MESSAGES.customerLinkInvalid, { token: [MESSAGES.customerLinkInvalid] }, 'link_invalid');

/** Customers as staff see them (scoped, docs/architecture.md), and the LINE link a customer completes. */
export function createCustomersService(ctx: AppContext) {
  const { db, salonId } = ctx;
  const toLocal = (instant: Date) => instantToLocalDateTime(instant, ctx.env.SALON_TZ);

  /** The salon's approval rule, from its settings in the booking read cache. */
  async function salonRule(): Promise<ApprovalRule> {
    const salon = await ctx.availability.salon();
    return salon ? approvalRuleOf(salon) : { autoConfirm: false, threshold: null };
  }

  /** A customer with their 無断欠席 and 直前キャンセル counts (one indexed query). */
  async function presentWithCounts(row: repo.CustomerRow) {
    const [incidents, rule] = await Promise.all([incidentCountsOf(db, row.id), salonRule()]);
    return presentCustomer(row, incidents, rule);
  }

  async function findInScope(staff: StaffPrincipal, customerId: number) {
    const row = await findCustomerForStaff(db, salonId, customerId, staff);
    if (!row) throw notFound(MESSAGES.customerNotFound);
    return row;
  }

  return {
    /** A page of the staff list, encoded as the route sends it, and the number of matches. */
    async list(staff: StaffPrincipal, query: CustomerListQuery): Promise<{ total: number; page: EncodedJson }> {
      // An ordinary staff member's user_id is ignored: their own scope, whatever they send (docs/architecture.md).
      const scopeStaffId = ownBookingsOnly(staff) ?? query.user_id;
      // Phone numbers are stored as digits; people type them with hyphens and spaces.
      const phone = query.phone_number?.replace(/[-\s()（）‐－ー]/g, '') || undefined;
      const filter = {
        salonId,
        scopeStaffId,
        name: query.name,
        email: query.email,
        phone,
        updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
        limit: query.limit,
        offset: query.offset,
      };
      const rule = await salonRule();
      // The search box: the database answers the JSON itself (name-search.ts).
      if (isNameAlone(filter)) {
        const { total, json } = await nameSearchAnswer(db, filter, rule);
        return { total, page: { json } };
      }
      // The page's counts come with its rows (one statement, on the partial index).
      const { rows, total } = await repo.listCustomers(db, filter);
      const items = rows.map((row) => presentCustomer(row, row.incidents ?? undefined, rule));
      return { total, page: encodeJson(adminCustomerListSchema, items) };
    },

    async get(staff: StaffPrincipal, customerId: number): Promise<AdminCustomer> {
      return presentWithCounts(await findInScope(staff, customerId));
    },

    async update(staff: StaffPrincipal, customerId: number, body: CustomerPatchRequest): Promise<AdminCustomer> {
      const patch = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
      if (Object.keys(patch).length === 0) return presentWithCounts(await findInScope(staff, customerId));
      const row = await repo.updateCustomer(db, salonId, customerId, staff, patch);
      if (!row) throw notFound(MESSAGES.customerNotFound);
      return presentWithCounts(row);
    },

    /** Ordinary staff see only the reservations assigned to them, even of a customer they share. */
    async reservations(staff: StaffPrincipal, customerId: number, page: { limit: number; offset: number }) {
      await findInScope(staff, customerId);
      const { rows, total } = await repo.listCustomerReservations(db, {
        salonId,
        customerId,
        staffId: ownBookingsOnly(staff),
        ...page,
      });
      return { items: await ctx.reservations.presentAllForStaff(rows satisfies StaffReservationRows), total };
    },

    async generateLineLink(staff: StaffPrincipal, customerId: number): Promise<CustomerLineLink> {
      const customer = await findInScope(staff, customerId);
      // Whoever opens the link becomes this customer on LINE (their messages, their bookings' notices): only a
      // superuser makes one (the route says so too), or staff could bind a customer to their own LINE account.
      if (!staff.isSuperuser) throw forbidden();
      if (customer.line_user_id) throw conflict(SERVER_MESSAGES.customerAlreadyLinked, 'already_linked');
      const { token, hash } = newLinkToken();
      const expiresAt = new Date(ctx.now().getTime() + CUSTOMER_LINK_TTL_MS);
      await insertLinkToken(db, {
        kind: 'customer',
        hash,
        targetId: customerId,
        createdByStaffId: staff.id,
        expiresAt,
        now: ctx.now(),
      });
      const linkUrl = `${ctx.publicUrl.replace(/\/+$/, '')}/link-customer/${token}`;
      return {
        link_url: linkUrl,
        message: SERVER_MESSAGES.customerLinkMessage(linkUrl),
        expires_at: toLocal(expiresAt),
      };
    },

    /** The page /link-customer/{token} asks first, so that a dead link says so before the LINE login. */
    async linkStatus(token: string) {
      const row = await findUsableLinkToken(db, 'customer', hashLinkToken(token), ctx.now());
      if (!row) throw notFound(MESSAGES.customerLinkInvalid);
      return { valid: true as const, expires_at: toLocal(row.expiresAt) };
    },

    /**
     * The customer completes the link with a LINE login. The token is consumed (compare-and-swap) and the LINE
     * identity set in one transaction: a LINE account already linked elsewhere rolls both back, so the token
     * stays usable; of two concurrent uses exactly one finds the token unused.
     */
    async completeLink(body: CustomerLinkRequest): Promise<TokenPair> {
      const hash = hashLinkToken(body.token);
      // A dead link is answered before the LINE code is spent; the transaction below still decides.
      if (!(await findUsableLinkToken(db, 'customer', hash, ctx.now()))) throw linkInvalid();
      const identity = await ctx.lineLogin.verifyCode({
        code: body.code,
        code_verifier: body.code_verifier,
        nonce: body.nonce,
        redirect_uri: body.redirect_uri,
      });
      let customerId: number;
      try {
        customerId = await db.transaction(async (tx) => {
          const consumed = await consumeLinkToken(tx, 'customer', hash, ctx.now());
          if (consumed === undefined) throw linkInvalid();
          const linked = await repo.linkCustomerToLine(tx, {
            salonId,
            customerId: consumed,
            lineUserId: identity.lineUserId,
            displayName: identity.displayName,
            pictureUrl: identity.pictureUrl,
          });
          if (linked === undefined) throw conflict(SERVER_MESSAGES.customerAlreadyLinked, 'already_linked');
          return linked;
        });
      } catch (error) {
        if (!(error instanceof ApiHttpError) && sqlState(error) === SQLSTATE.uniqueViolation) {
          throw conflict(MESSAGES.lineLinkedToOtherCustomer, 'line_already_linked');
        }
        throw error;
      }
      return ctx.auth.issueTokenPair(TOKEN_AUDIENCES.customer, customerId);
    },
  };
}
