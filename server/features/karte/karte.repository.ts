import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { reservations, staffUsers, visitNotes, visitPhotos } from '../../db/schema';

export type VisitPhotoRow = typeof visitPhotos.$inferSelect;

const reservationColumns = {
  id: reservations.id,
  reservation_number: reservations.reservation_number,
  staff_id: reservations.staff_id,
  customer_id: reservations.customer_id,
  status: reservations.status,
};
export type KarteReservation = {
  id: number;
  reservation_number: string;
  staff_id: number;
  customer_id: number;
  status: string;
};

export async function findReservation(db: Executor, salonId: number, reservationNumber: string) {
  const [row] = await db
    .select(reservationColumns)
    .from(reservations)
    .where(and(eq(reservations.salon_id, salonId), eq(reservations.reservation_number, reservationNumber)))
    .limit(1);
  return row;
}

/**
 * The reservation row, locked until the transaction ends: uploads to one reservation take turns here, so that the
 * count they check against the limit cannot be raced past, and a status change cannot slip in between.
 */
export async function lockReservation(db: Executor, reservationId: number) {
  const [row] = await db
    .select(reservationColumns)
    .from(reservations)
    .where(eq(reservations.id, reservationId))
    .for('update');
  return row;
}

export async function countPhotos(db: Executor, reservationId: number, kind: VisitPhotoRow['kind']) {
  const [row] = await db
    .select({ value: count() })
    .from(visitPhotos)
    .where(and(eq(visitPhotos.reservation_id, reservationId), eq(visitPhotos.kind, kind)));
  return row?.value ?? 0;
}

/** Null when another request with the same Idempotency-Key inserted first (the unique index decides). */
export async function insertPhoto(db: Executor, row: typeof visitPhotos.$inferInsert): Promise<VisitPhotoRow | null> {
  const [inserted] = await db.insert(visitPhotos).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function findPhotoByKey(db: Executor, idempotencyKey: string) {
  const [row] = await db.select().from(visitPhotos).where(eq(visitPhotos.idempotency_key, idempotencyKey)).limit(1);
  return row;
}

export async function findPhoto(db: Executor, salonId: number, photoId: number) {
  const [row] = await db
    .select({ photo: visitPhotos, staff_id: reservations.staff_id })
    .from(visitPhotos)
    .innerJoin(reservations, eq(reservations.id, visitPhotos.reservation_id))
    .where(and(eq(visitPhotos.salon_id, salonId), eq(visitPhotos.id, photoId)))
    .limit(1);
  return row;
}

export async function deletePhoto(db: Executor, photoId: number) {
  const [row] = await db.delete(visitPhotos).where(eq(visitPhotos.id, photoId)).returning();
  return row;
}

export async function photosOf(db: Executor, reservationIds: number[], kind?: VisitPhotoRow['kind']) {
  if (reservationIds.length === 0) return [];
  const conditions = [inArray(visitPhotos.reservation_id, reservationIds)];
  if (kind) conditions.push(eq(visitPhotos.kind, kind));
  return db
    .select()
    .from(visitPhotos)
    .where(and(...conditions))
    .orderBy(visitPhotos.created_at, visitPhotos.id);
}

export async function findNote(db: Executor, reservationId: number) {
  const [row] = await db.select().from(visitNotes).where(eq(visitNotes.reservation_id, reservationId)).limit(1);
  return row;
}

export async function saveNote(db: Executor, row: typeof visitNotes.$inferInsert & { updated_at: Date }) {
  const [saved] = await db
    .insert(visitNotes)
    .values(row)
    .onConflictDoUpdate({
      target: visitNotes.reservation_id,
      set: { note: row.note, updated_at: row.updated_at, updated_by_staff_id: row.updated_by_staff_id },
    })
    .returning();
  return saved!;
}

/** A customer's completed visits, newest first, with their notes; an ordinary staff member's own only. */
export async function completedVisits(
  db: Executor,
  salonId: number,
  customerId: number,
  staffId: number | undefined,
  limit: number,
) {
  const conditions = [
    eq(reservations.salon_id, salonId),
    eq(reservations.customer_id, customerId),
    eq(reservations.status, 'completed'),
  ];
  if (staffId !== undefined) conditions.push(eq(reservations.staff_id, staffId));
  return db
    .select({
      id: reservations.id,
      reservation_number: reservations.reservation_number,
      start_time: reservations.start_time,
      service_name: reservations.service_name,
      staff_name: staffUsers.full_name,
      note: visitNotes.note,
    })
    .from(reservations)
    .innerJoin(staffUsers, eq(staffUsers.id, reservations.staff_id))
    .leftJoin(visitNotes, eq(visitNotes.reservation_id, reservations.id))
    .where(and(...conditions))
    .orderBy(desc(reservations.start_time), desc(reservations.id))
    .limit(limit);
}
