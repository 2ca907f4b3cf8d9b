import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { REFERENCE_PHOTO_LIMIT, type VisitPhoto } from '#src/shared/schemas/karte';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { CustomerReferenceImages } from './customer-reference-images';
import { ReferenceImagesField } from './reference-images-field';
import { sendReferenceImages } from './reference-images-api';

const NUMBER = '44444444-4444-4444-8444-444444444444';
const image = (name: string) => new File([new Uint8Array([0xff, 0xd8, 0xff])], name, { type: 'image/jpeg' });

function Field() {
  const [files, setFiles] = useState<File[]>([]);
  return <ReferenceImagesField files={files} onChange={setFiles} />;
}

describe('デザインの参考画像 (booking confirmation step)', () => {
  it('takes up to three images, each removable, labelled for screen readers', async () => {
    renderWithProviders(<Field />);
    const input = await screen.findByLabelText(MESSAGES.referenceImageLabel, { selector: 'input' });
    expect(input).toHaveAttribute('accept', 'image/*');
    await userEvent.upload(input as HTMLInputElement, [image('a.jpg'), image('b.jpg')]);
    await userEvent.upload(input as HTMLInputElement, [image('c.jpg'), image('d.jpg')]);
    expect(screen.getAllByRole('button', { name: new RegExp(MESSAGES.referenceImageRemove) })).toHaveLength(
      REFERENCE_PHOTO_LIMIT,
    );
    expect(screen.queryByText('d.jpg')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '画像を選ぶ' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: `${MESSAGES.referenceImageRemove}（a.jpg）` }));
    expect(screen.queryByText('a.jpg')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '画像を選ぶ' })).toBeEnabled();
  });

  it('sending after the booking reports failures instead of throwing', async () => {
    let calls = 0;
    server.use(
      http.post('/api/reservations/:number/photos/', ({ request }) => {
        calls += 1;
        expect(request.headers.get('idempotency-key')).toBeTruthy();
        return calls === 2
          ? HttpResponse.json(
              { detail: SERVER_MESSAGES.imageUnreadable, code: 'unsupported_media_type' },
              { status: 415 },
            )
          : HttpResponse.json({}, { status: 201 });
      }),
    );
    expect(await sendReferenceImages(NUMBER, [image('a.jpg'), image('b.jpg'), image('c.jpg')])).toEqual({
      sent: 2,
      failed: 1,
    });
  });
});

describe('デザインの参考画像 on the customer’s reservation page', () => {
  it('shows the images sent and adds one while the booking is open', async () => {
    const sent: VisitPhoto[] = [];
    const photo = (id: number): VisitPhoto => ({
      id,
      kind: 'reference',
      url: `/api/visit-photos/${id}/full/?expires=1&sig=a`,
      thumbnail_url: `/api/visit-photos/${id}/thumb/?expires=1&sig=a`,
      uploaded_by: 'customer',
      created_at: '2030-01-09T03:00:00.000Z',
    });
    server.use(
      http.get('/api/reservations/:number/photos/', () => HttpResponse.json([photo(1), ...sent])),
      http.post('/api/reservations/:number/photos/', () => {
        sent.push(photo(2));
        return HttpResponse.json(photo(2), { status: 201 });
      }),
    );
    renderWithProviders(<CustomerReferenceImages reservationNumber={NUMBER} open />);
    expect(await screen.findByRole('img', { name: MESSAGES.karteReferencePhotoAlt(1) })).toBeInTheDocument();
    const input = screen.getByLabelText(`${MESSAGES.referenceImageLabel}を追加`, { selector: 'input' });
    await userEvent.upload(input as HTMLInputElement, image('design.jpg'));
    expect(await screen.findByRole('img', { name: MESSAGES.karteReferencePhotoAlt(2) })).toBeInTheDocument();
  });

  it('a finished visit without images shows nothing', async () => {
    const { container } = renderWithProviders(<CustomerReferenceImages reservationNumber={NUMBER} open={false} />);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(container.querySelector('section')).toBeNull();
  });
});
