import { eq, sql } from 'drizzle-orm';
import { TOKEN_AUDIENCES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { LineCallbackRequest, TokenPair } from '#src/shared/schemas/auth';
import type { Database } from '../../db/client';
import { customers } from '../../db/schema';
import { ApiHttpError } from '../../http-errors';
import { LineIdTokenError, verifyLineIdToken, type LineIdentity } from '../../integrations/line/id-token';
import {
  LineCodeRejectedError,
  LineUnavailableError,
  type LineLoginClient,
} from '../../integrations/line/login-client';
import type { AuthService } from './auth.service';

/** Exchanges a LINE Login code, verifies the ID token, and returns customer tokens for that LINE user. */
export function createLineLoginService(deps: {
  db: Database;
  salonId: number;
  line: LineLoginClient;
  auth: AuthService;
  defaultRedirectUri: string;
  now: () => Date;
}) {
  return {
    async login(request: LineCallbackRequest): Promise<TokenPair> {
      const identity = await verifyCode(deps, request);
      const customerId = await upsertCustomer(deps.db, deps.salonId, identity);
      return deps.auth.issueTokenPair(TOKEN_AUDIENCES.customer, customerId);
    },
    /** For staff LINE login and account linking: the verified LINE identity behind a code. */
    verifyCode: (request: LineCallbackRequest) => verifyCode(deps, request),
  };
}

async function verifyCode(
  deps: { line: LineLoginClient; defaultRedirectUri: string; now: () => Date },
  request: LineCallbackRequest,
): Promise<LineIdentity> {
  try {
    const { idToken } = await deps.line.exchangeCode({
      code: request.code,
      redirectUri: request.redirect_uri ?? deps.defaultRedirectUri,
      codeVerifier: request.code_verifier,
    });
    return await verifyLineIdToken(idToken, {
      channelId: deps.line.channelId,
      channelSecret: deps.line.channelSecret,
      nonce: request.nonce,
      now: deps.now(),
    });
  } catch (error) {
    // A refused code or a bad ID token will not get better by retrying; an unreachable LINE may.
    if (error instanceof LineCodeRejectedError || error instanceof LineIdTokenError) {
      throw new ApiHttpError(401, 'line_login_failed', MESSAGES.lineLoginFailed);
    }
    if (error instanceof LineUnavailableError)
      throw new ApiHttpError(502, 'line_unavailable', MESSAGES.lineLoginFailed);
    throw error;
  }
}

/** One customer per LINE user and salon; the profile name and picture follow LINE, contact details do not. */
async function upsertCustomer(db: Database, salonId: number, identity: LineIdentity): Promise<number> {
  const [row] = await db
    .insert(customers)
    .values({
      salon_id: salonId,
      line_user_id: identity.lineUserId,
      name: identity.displayName,
      email: identity.email,
      line_display_name: identity.displayName,
      line_picture_url: identity.pictureUrl,
    })
    .onConflictDoUpdate({
      target: [customers.salon_id, customers.line_user_id],
      set: {
        line_display_name: identity.displayName,
        line_picture_url: identity.pictureUrl,
        updated_at: sql`now()`,
      },
    })
    .returning({ id: customers.id });
  return row!.id;
}

export async function findCustomerProfile(db: Database, customerId: number) {
  const [row] = await db.select().from(customers).where(eq(customers.id, customerId)).limit(1);
  return row;
}

/** The customer's own 再来店のご案内 switch (server/outbox/rebooking.ts reads it); false when the customer is gone. */
export async function setRebookPrompts(db: Database, customerId: number, enabled: boolean): Promise<boolean> {
  const rows = await db
    .update(customers)
    .set({ rebook_prompts_enabled: enabled, updated_at: sql`now()` })
    .where(eq(customers.id, customerId))
    .returning({ id: customers.id });
  return rows.length > 0;
}
