import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RESERVATION_NUMBER, reservationFixture } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { fixWizardClock, reachDetails, setup, user } from '#tests/setup/wizard-steps';

/** The optional デザインの参考画像 of /reserve's confirmation step: sent after the booking, never at its expense. */
fixWizardClock();

const image = (name: string) => new File([new Uint8Array([0xff, 0xd8, 0xff])], name, { type: 'image/jpeg' });

async function bookWithImages(answer: (index: number) => Response) {
  setup();
  const uploads: string[] = [];
  server.use(
    http.post('/api/reservations/', () => HttpResponse.json(reservationFixture(), { status: 201 })),
    http.post('/api/reservations/:number/photos/', ({ params }) => {
      uploads.push(String(params.number));
      return answer(uploads.length - 1);
    }),
  );
  await reachDetails();
  await user().click(screen.getByRole('button', { name: '予約内容を確認する' }));
  const input = await screen.findByLabelText(MESSAGES.referenceImageLabel, { selector: 'input' });
  await user().upload(input as HTMLInputElement, [image('design-1.jpg'), image('design-2.jpg')]);
  expect(screen.getByText('design-2.jpg')).toBeInTheDocument();
  await user().click(screen.getByRole('button', { name: 'この内容で予約する' }));
  expect(await screen.findByRole('heading', { name: 'ご予約を受け付けました' })).toBeInTheDocument();
  return uploads;
}

describe('/reserve wizard: デザインの参考画像', () => {
  // The first test of a file also loads the wizard's lazy steps.
  it('uploads the chosen images to the new reservation and says so', { timeout: 20_000 }, async () => {
    const uploads = await bookWithImages(() => HttpResponse.json({}, { status: 201 }));
    expect(uploads).toEqual([RESERVATION_NUMBER, RESERVATION_NUMBER]);
    expect(screen.getByText(MESSAGES.referenceImagesSent(2))).toBeInTheDocument();
  });

  it('keeps the booking when an upload fails, and says the images did not arrive', { timeout: 20_000 }, async () => {
    await bookWithImages((index) =>
      index === 0
        ? HttpResponse.json(
            { detail: SERVER_MESSAGES.imageUnreadable, code: 'unsupported_media_type' },
            { status: 415 },
          )
        : HttpResponse.json({}, { status: 201 }),
    );
    expect(screen.getByText(RESERVATION_NUMBER)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.referenceImagesFailed);
  });
});
