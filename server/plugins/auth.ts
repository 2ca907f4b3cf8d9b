import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { TOKEN_AUDIENCES } from '../../src/shared/constants';
import { canSeeAllBookings, isOwner, type StaffRole } from '../../src/shared/roles';
import type { Database } from '../db/client';
import { customers, staffUsers } from '../db/schema';
import type { TokenSigner, VerifiedToken } from '../features/auth/tokens';
import { forbidden, notAuthenticated, tokenNotValid } from '../http-errors';

/**
 * Who may call a route. Every /api/ route must declare one in `config.auth`; one without it fails at start,
 * so nothing is ever public by accident. (Static files and the dev emulator are public by nature.)
 * - public: anyone. - customer: a customer token. - staff: a staff token, any role.
 * - frontDesk: a staff token of the owner or the front desk (canSeeAllBookings, src/shared/roles.ts), e.g. 会計.
 * - superuser: a staff token of the owner (settings, staff accounts, statistics, holidays and shifts).
 * - staffOrCustomer: either token (the shared reservation detail page).
 */
type AuthRequirement = 'public' | 'customer' | 'staff' | 'frontDesk' | 'superuser' | 'staffOrCustomer';

export interface StaffPrincipal {
  id: number;
  salonId: number;
  username: string;
  role: StaffRole;
  /** True exactly for the owner. */
  isSuperuser: boolean;
}
interface CustomerPrincipal {
  id: number;
  /** null on a route that reads the customer's row itself (`customerRowInHandler`). */
  salonId: number | null;
}

/** One registered route, as the authorization matrix test walks them (HEAD twins left out). */
interface RegisteredRoute {
  method: string;
  url: string;
  auth: AuthRequirement | null;
  /** The route's request schemas (zod), for suites that walk every route's input (hostile-input fuzzing). */
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app with its declared requirement, in registration order. */
    registeredRoutes: RegisteredRoute[];
  }
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /**
     * A customer route whose handler reads the customer's row in its own first statement and answers 401
     * token_not_valid when it is gone, as this plugin would (the booking: book_reservation() locks it). The
     * plugin then takes the verified token's subject without a round trip of its own.
     */
    customerRowInHandler?: boolean;
  }
  interface FastifyRequest {
    staff: StaffPrincipal | null;
    customer: CustomerPrincipal | null;
    /** The verified access token of a request that carried one (its version and expiry), else null. */
    accessToken: VerifiedToken | null;
  }
}

/** The staff principal of a route declared `staff`, `frontDesk` or `superuser`; the hook has already checked it. */
export function staffOf(request: FastifyRequest): StaffPrincipal {
  if (!request.staff) throw notAuthenticated();
  return request.staff;
}
export function customerOf(request: FastifyRequest): CustomerPrincipal {
  if (!request.customer) throw notAuthenticated();
  return request.customer;
}

export const authPlugin = fp(async (app: FastifyInstance, options: { db: Database; tokens: TokenSigner }) => {
  const { db, tokens } = options;
  app.decorateRequest('staff', null);
  app.decorateRequest('customer', null);
  app.decorateRequest('accessToken', null);

  // Every authenticated request reads one of these rows: each query is built once, and reads only what the check and
  // the principal need. Named, so PostgreSQL parses each once per connection (server/db/prepared.ts; behind a
  // transaction-pooling PgBouncer that needs its max_prepared_statements, docs/OPERATIONS.md).
  const staffById = db
    .select({
      id: staffUsers.id,
      salon_id: staffUsers.salon_id,
      username: staffUsers.username,
      role: staffUsers.role,
      is_active: staffUsers.is_active,
      token_version: staffUsers.token_version,
    })
    .from(staffUsers)
    .where(eq(staffUsers.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_staff_by_id');
  const customerById = db
    .select({ id: customers.id, salonId: customers.salon_id })
    .from(customers)
    .where(eq(customers.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_customer_by_id');

  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    const auth = (route.config as { auth?: AuthRequirement } | undefined)?.auth;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD');
    if (!auth && route.url.startsWith('/api/') && methods.length > 0) {
      throw new Error(`Route ${methods.join(',')} ${route.url} declares no config.auth`);
    }
    const schema = route.schema as RegisteredRoute['schema'];
    for (const method of methods) registeredRoutes.push({ method, url: route.url, auth: auth ?? null, schema });
  });

  app.addHook('onRequest', async (request) => {
    const requirement = request.routeOptions.config.auth ?? 'public';
    if (requirement === 'public') return;
    const token = bearerToken(request);
    if (!token) throw notAuthenticated();

    // Staff and customer tokens have different audiences; trying the allowed ones in turn keeps one path.
    const audiences =
      requirement === 'customer'
        ? [TOKEN_AUDIENCES.customer]
        : requirement === 'staffOrCustomer'
          ? [TOKEN_AUDIENCES.staff, TOKEN_AUDIENCES.customer]
          : [TOKEN_AUDIENCES.staff];
    for (const audience of audiences) {
      const verified = await tokens.verify(token, { audience, tokenType: 'access' }).catch(() => null);
      if (!verified) continue;
      request.accessToken = verified;
      if (audience === TOKEN_AUDIENCES.staff) {
        const [staff] = await staffById.execute({ id: verified.subjectId });
        // A password change or a deactivation raised the version: every token issued before is void at once.
        if (!staff?.is_active || staff.token_version !== verified.version) throw tokenNotValid();
        request.staff = {
          id: staff.id,
          salonId: staff.salon_id,
          username: staff.username,
          role: staff.role,
          isSuperuser: isOwner(staff.role),
        };
        if (requirement === 'superuser' && !isOwner(staff.role)) throw forbidden();
        if (requirement === 'frontDesk' && !canSeeAllBookings(staff.role)) throw forbidden();
      } else if (request.routeOptions.config.customerRowInHandler) {
        request.customer = { id: verified.subjectId, salonId: null };
      } else {
        const [customer] = await customerById.execute({ id: verified.subjectId });
        if (!customer) throw tokenNotValid();
        request.customer = customer;
      }
      return;
    }
    throw tokenNotValid();
  });
});

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}
