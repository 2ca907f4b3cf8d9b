import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '#src/lib/db';
import { flushOutbox, reloadOutbox, resetOutboxForTests } from '#src/lib/outbox';
import { MESSAGES } from '#src/shared/messages';
import type { Karte, VisitPhoto } from '#src/shared/schemas/karte';
import { clearNotifications, LAZY, storeAdminTokens } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { KarteSection } from './karte-section';

const NUMBER = '33333333-3333-4333-8333-333333333333';

let online = true;
Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });

const photo = (id: number, kind: VisitPhoto['kind'] = 'visit'): VisitPhoto => ({
  id,
  kind,
  url: `/api/visit-photos/${id}/full/?expires=1&sig=a`,
  thumbnail_url: `/api/visit-photos/${id}/thumb/?expires=1&sig=a`,
  uploaded_by: kind === 'visit' ? 'staff' : 'customer',
  created_at: '2030-01-09T03:00:00.000Z',
});

/** Serves a karte and records the changes the section sends. */
function serve(karte: Partial<Karte> = {}) {
  let current: Karte = {
    reservation_number: NUMBER,
    status: 'completed',
    note: '',
    note_updated_at: null,
    photos: [],
    ...karte,
  };
  const sent: Array<{ method: string; path: string; key: string | null; body: unknown }> = [];
  server.use(
    http.get('/api/admin/reservations/:number/karte/', () => HttpResponse.json(current)),
    http.put('/api/admin/reservations/:number/visit-note/', async ({ request }) => {
      const body = (await request.json()) as { note: string };
      sent.push({ method: 'PUT', path: new URL(request.url).pathname, key: null, body });
      current = { ...current, note: body.note, note_updated_at: '2030-01-10T00:00:00.000Z' };
      return HttpResponse.json({ note: body.note, updated_at: current.note_updated_at });
    }),
    http.post('/api/admin/reservations/:number/photos/', async ({ request }) => {
      const form = await request.formData();
      const file = form.get('photo') as File;
      sent.push({
        method: 'POST',
        path: new URL(request.url).pathname,
        key: request.headers.get('idempotency-key'),
        body: file.size,
      });
      const added = photo(100 + current.photos.length);
      current = { ...current, photos: [...current.photos, added] };
      return HttpResponse.json(added, { status: 201 });
    }),
    http.delete('/api/admin/visit-photos/:id/', ({ params, request }) => {
      sent.push({ method: 'DELETE', path: new URL(request.url).pathname, key: null, body: null });
      current = { ...current, photos: current.photos.filter((item) => item.id !== Number(params.id)) };
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return sent;
}

const jpegFile = () =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], 'nail.jpg', { type: 'image/jpeg' });

beforeEach(async () => {
  online = true;
  storeAdminTokens();
  resetOutboxForTests();
  await db.outbox.clear();
});
afterEach(clearNotifications);

describe('カルテ section of the staff reservation detail', () => {
  it('saves the note of a completed visit and shows its photos; deleting one asks first', async () => {
    const sent = serve({
      note: '前回はワンカラー',
      note_updated_at: '2030-01-09T00:00:00.000Z',
      photos: [photo(1), photo(2)],
    });
    renderWithProviders(<KarteSection reservationNumber={NUMBER} status="completed" />);

    const note = await screen.findByLabelText(MESSAGES.karteNoteLabel, {}, LAZY);
    expect(note).toHaveValue('前回はワンカラー');
    expect(screen.getByRole('img', { name: MESSAGES.karteVisitPhotoAlt(2) })).toHaveAttribute(
      'src',
      photo(2).thumbnail_url,
    );
    await userEvent.clear(note);
    await userEvent.type(note, 'マグネット、短め');
    await userEvent.click(screen.getByRole('button', { name: MESSAGES.karteNoteSave }));
    await waitFor(() =>
      expect(sent).toContainEqual(expect.objectContaining({ method: 'PUT', body: { note: 'マグネット、短め' } })),
    );

    await userEvent.click(
      screen.getByRole('button', { name: `${MESSAGES.kartePhotoDelete}（${MESSAGES.karteVisitPhotoAlt(1)}）` }),
    );
    const dialog = await screen.findByRole('dialog', { name: '確認' });
    expect(dialog).toHaveTextContent(MESSAGES.kartePhotoDeleteQuestion);
    expect(sent.some((item) => item.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: '削除する' }));
    await waitFor(() => expect(sent.map((item) => item.path)).toContain('/api/admin/visit-photos/1/'));
    await waitFor(() =>
      expect(screen.queryByRole('img', { name: MESSAGES.karteVisitPhotoAlt(2) })).not.toBeInTheDocument(),
    );
  });

  it('a photo picked from the camera input is uploaded with an Idempotency-Key', async () => {
    const sent = serve();
    renderWithProviders(<KarteSection reservationNumber={NUMBER} status="completed" />);
    const input = await screen.findByLabelText(MESSAGES.karteAddPhoto, {}, LAZY);
    expect(input).toHaveAttribute('accept', 'image/*');
    expect(input).toHaveAttribute('capture', 'environment');
    expect(await screen.findByText(MESSAGES.karteNoPhotos)).toBeInTheDocument();
    await userEvent.upload(input as HTMLInputElement, jpegFile());
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: `/api/admin/reservations/${NUMBER}/photos/`,
      body: 7,
    });
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(await screen.findByRole('img', { name: MESSAGES.karteVisitPhotoAlt(1) })).toBeInTheDocument();
  });

  it('offline, the photo waits on the device as 送信待ち and nothing is sent', async () => {
    const sent = serve();
    renderWithProviders(<KarteSection reservationNumber={NUMBER} status="completed" />);
    const input = await screen.findByLabelText(MESSAGES.karteAddPhoto, {}, LAZY);
    online = false;
    await userEvent.upload(input as HTMLInputElement, jpegFile());
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ kind: 'visit-photo', target: `karte:${NUMBER}`, state: 'pending' });
    expect(entry!.photo!.bytes.byteLength).toBe(7);
    await reloadOutbox();
    expect(await screen.findByTestId('karte-pending')).toHaveTextContent(MESSAGES.kartePhotoPending);
    expect(sent).toEqual([]);
  });

  it('offline, the note is saved on the device as 未送信 like a customer memo, and sent once back online', async () => {
    const sent = serve({ note: '前回はワンカラー', note_updated_at: '2030-01-09T00:00:00.000Z' });
    renderWithProviders(<KarteSection reservationNumber={NUMBER} status="completed" />);
    const note = await screen.findByLabelText(MESSAGES.karteNoteLabel, {}, LAZY);
    online = false;
    await userEvent.clear(note);
    await userEvent.type(note, 'オフ込み、長さ短め');
    await userEvent.click(screen.getByRole('button', { name: MESSAGES.karteNoteSave }));
    expect(await screen.findByText(MESSAGES.offlineMemoQueued)).toBeInTheDocument();
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ kind: 'visit-note', target: `karte-note:${NUMBER}`, note: 'オフ込み、長さ短め' });
    expect(await screen.findByText('未送信')).toBeInTheDocument();
    expect(sent).toEqual([]);

    online = true;
    await flushOutbox();
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: `/api/admin/reservations/${NUMBER}/visit-note/`,
        key: null,
        body: { note: 'オフ込み、長さ短め' },
      },
    ]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a booking not yet visited shows only the customer’s reference images, with nothing to add', async () => {
    serve({ status: 'confirmed', photos: [photo(7, 'reference')] });
    renderWithProviders(<KarteSection reservationNumber={NUMBER} status="confirmed" />);
    expect(await screen.findByRole('img', { name: MESSAGES.karteReferencePhotoAlt(1) }, LAZY)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.karteReferenceLabel)).toBeInTheDocument();
    expect(screen.queryByLabelText(MESSAGES.karteAddPhoto)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(MESSAGES.karteNoteLabel)).not.toBeInTheDocument();
  });
});

describe('without a connection that answers', () => {
  it('a pending booking’s カルテ says it is not kept on the device, instead of loading and then failing', async () => {
    serve({ status: 'pending' });
    server.use(http.get('/api/admin/reservations/:number/karte/', () => HttpResponse.error()));
    renderWithProviders(<KarteSection reservationNumber={NUMBER} status="pending" />);
    expect(await screen.findByTestId('karte-not-kept')).toHaveTextContent(MESSAGES.karteNotKeptOffline);
    expect(screen.queryByText(MESSAGES.karteLoadFailed)).not.toBeInTheDocument();
  });

  it('offline, it says so at once', async () => {
    serve({ status: 'pending' });
    online = false;
    renderWithProviders(<KarteSection reservationNumber={NUMBER} status="pending" />);
    expect(screen.getByTestId('karte-not-kept')).toHaveTextContent(MESSAGES.karteNotKeptOffline);
    expect(screen.queryByText('読み込み中…')).not.toBeInTheDocument();
  });
});
