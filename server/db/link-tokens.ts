/**
 * One-time link tokens (docs/architecture.md): staff registration links (24 hours) and customer LINE links (7 days).
 * Only the SHA-256 of a token is stored, so a database leak does not hand out usable links.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database, Executor } from './client';
import { linkTokens } from './schema';

type LinkTokenKind = 'staff' | 'customer';

/** 128 random bits, base64url: the secret that goes into the link. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(16).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Stores a new link for a staff member or customer and ends every earlier unused link of the same kind for
 * them: only the latest link works, so a link that went to the wrong chat can be replaced, not just outlived.
 */
export async function insertLinkToken(
  db: Database,
  input: { kind: LinkTokenKind; hash: string; targetId: number; createdByStaffId: number; expiresAt: Date; now: Date },
) {
  const target = input.kind === 'staff' ? linkTokens.staff_id : linkTokens.customer_id;
  await db.transaction(async (tx) => {
    await tx
      .update(linkTokens)
      .set({ expires_at: input.now })
      .where(
        and(
          eq(linkTokens.kind, input.kind),
          eq(target, input.targetId),
          isNull(linkTokens.used_at),
          gt(linkTokens.expires_at, input.now),
        ),
      );
    await tx.insert(linkTokens).values({
      token_hash: input.hash,
      kind: input.kind,
      staff_id: input.kind === 'staff' ? input.targetId : null,
      customer_id: input.kind === 'customer' ? input.targetId : null,
      created_by_staff_id: input.createdByStaffId,
      expires_at: input.expiresAt,
    });
  });
}

const usable = (kind: LinkTokenKind, hash: string, now: Date) =>
  and(
    eq(linkTokens.token_hash, hash),
    eq(linkTokens.kind, kind),
    isNull(linkTokens.used_at),
    gt(linkTokens.expires_at, now),
  );

const targetOf = (kind: LinkTokenKind, row: { staff_id: number | null; customer_id: number | null }) =>
  (kind === 'staff' ? row.staff_id : row.customer_id) ?? undefined;

/** An unused, unexpired token's target and expiry (a read for the page; the use itself is consumeLinkToken). */
export async function findUsableLinkToken(db: Executor, kind: LinkTokenKind, hash: string, now: Date) {
  const [row] = await db
    .select({ staff_id: linkTokens.staff_id, customer_id: linkTokens.customer_id, expires_at: linkTokens.expires_at })
    .from(linkTokens)
    .where(usable(kind, hash, now))
    .limit(1);
  return row && { targetId: targetOf(kind, row), expiresAt: row.expires_at };
}

/** Compare-and-swap: marks the token used only if it is still unused and unexpired, so it works exactly once. */
export async function consumeLinkToken(
  db: Executor,
  kind: LinkTokenKind,
  hash: string,
  now: Date,
): Promise<number | undefined> {
  const [row] = await db
    .update(linkTokens)
    .set({ used_at: now })
    .where(usable(kind, hash, now))
    .returning({ staff_id: linkTokens.staff_id, customer_id: linkTokens.customer_id });
  return row && targetOf(kind, row);
}
