/** Access tokens signed with the server's JWT_SECRET, as a login would issue them (hours long: no refresh mid-run). */
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { createTokenSigner } from '../../server/features/auth/tokens';
import { TOKEN_AUDIENCES } from '../../src/shared/constants';

const TTL_SECONDS = 6 * 3600;

export function benchSigner(jwtSecret: string) {
  return createTokenSigner({ secret: jwtSecret, accessTtlSeconds: TTL_SECONDS, refreshTtlSeconds: TTL_SECONDS });
}

/** The superuser's token: the admin screens of the whole salon. */
export async function superuserToken(db: Database, jwtSecret: string): Promise<string> {
  const result = (await db.execute(
    sql`select id from staff_users where is_superuser order by id limit 1`,
  )) as unknown as {
    rows: { id: number }[];
  };
  const id = Number(result.rows[0]!.id);
  return (await benchSigner(jwtSecret).sign({ audience: TOKEN_AUDIENCES.staff, subjectId: id, tokenType: 'access' }))
    .token;
}
