/**
 * The staff search box (GET /api/admin/customers/?name=, the name alone, by a caller who sees every customer) as one
 * named statement that answers the page's JSON and the number of matches (docs/decisions/0022-booking-in-one-statement.md,
 * step 3): reading the rows into JavaScript, presenting and encoding them cost the server more than the database
 * spent on the search. The matches' ids come from the table of name suffixes (migration 0019), counted and paged
 * there; only the page's customers are read, with their incident counts (server/db/incidents.ts). The answer is
 * customers.service.ts's presentCustomer, field for field and in its order: tests/integration/customer-search.test.ts
 * compares the two, and `npm run bench` compares it with bench/lib/bare-sql.ts in every run.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import type { ApprovalRule } from '../../scheduling/approval-rule';
import { customersNamed, suffixRange, type CustomerListFilter } from './customers.repository';

const NAME = 'customer_search_answer';

function nameSearchStatement(db: Executor) {
  const ids = db
    .$with('named')
    .as(customersNamed(db, sql.placeholder('salonId'), sql.placeholder('from'), sql.placeholder('to')));
  // needs_approval as ruleHoldsBack (server/scheduling/approval-rule.ts) decides it from the salon's cached rule.
  const customerJson = sql`json_build_object(
    'id', c.id, 'name', c.name, 'furigana', c.furigana, 'email', c.email, 'phone_number', c.phone_number,
    'notes', c.notes, 'line_user_id', c.line_user_id, 'line_display_name', c.line_display_name,
    'line_picture_url', c.line_picture_url, 'is_line_linked', coalesce(c.line_user_id, '') <> '',
    'assigned_staff_id', c.assigned_staff_id, 'rebook_prompts_enabled', c.rebook_prompts_enabled,
    'no_show_count', inc.no_show_count, 'late_cancel_count', inc.late_cancel_count,
    'needs_approval', ${sql.placeholder('autoConfirm')}::boolean
      and coalesce(inc.no_show_count + inc.late_cancel_count >= ${sql.placeholder('threshold')}::int, false),
    'updated_at', to_char(c.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
  return db
    .with(ids)
    .select({
      total: sql<number>`(select count(*) from ${ids})::int`.mapWith(Number),
      body: sql<string>`coalesce(json_agg(${customerJson} order by c.id), '[]')::text`,
    })
    .from(
      sql`customers c left join lateral (
        select count(*) filter (where incident.status = 'no_show')::int as no_show_count,
          count(*) filter (where incident.cancelled_late)::int as late_cancel_count
        from reservations incident
        where incident.customer_id = c.id and (incident.status = 'no_show' or incident.cancelled_late)) inc on true`,
    )
    .where(
      sql`c.salon_id = ${sql.placeholder('salonId')}::int and c.id in (
        select ${ids.id} from ${ids} order by ${ids.id}
        limit ${sql.placeholder('limit')}::int offset ${sql.placeholder('offset')}::int)`,
    )
    .prepare(NAME);
}

/** A name and nothing else, by a caller who sees every customer: what this statement answers. */
export function isNameAlone(filter: CustomerListFilter): filter is CustomerListFilter & { name: string } {
  return (
    Boolean(filter.name) &&
    filter.scopeStaffId === undefined &&
    !filter.email &&
    !filter.phone &&
    filter.updatedSince === undefined
  );
}

/** The page as the route sends it (a JSON array, encoded) and X-Total-Count: every match, whatever the page. */
export async function nameSearchAnswer(
  db: Executor,
  filter: CustomerListFilter & { name: string },
  rule: ApprovalRule,
): Promise<{ total: number; json: string }> {
  const { from, to } = suffixRange(filter.name);
  const [row] = await preparedOn(db, NAME, nameSearchStatement).execute({
    salonId: filter.salonId,
    from,
    to,
    limit: filter.limit,
    offset: filter.offset,
    autoConfirm: rule.autoConfirm,
    threshold: rule.threshold,
  });
  return { total: row!.total, json: row!.body };
}
