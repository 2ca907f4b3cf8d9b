import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { reservationFixture } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { fixWizardClock, reachDetails, setup, user } from '#tests/setup/wizard-steps';

/**
 * The completion page is a lazy route: between the booking's answer and that page, the wizard is still on screen.
 * Its module is held back here until the test lets it load, so that this moment lasts as long as the test needs.
 */
const completionPage = vi.hoisted(() => {
  let load!: () => void;
  const loaded = new Promise<void>((resolve) => (load = resolve));
  return { requested: false, loaded, load };
});
vi.mock('#src/features/booking/components/reservation-complete-page', async (importOriginal) => {
  completionPage.requested = true;
  await completionPage.loaded;
  return importOriginal();
});

fixWizardClock();

describe('/reserve wizard: after the booking is answered', () => {
  it('sends nothing more while the completion page loads', async () => {
    setup();
    const posts: unknown[] = [];
    server.use(
      http.post('/api/reservations/', async ({ request }) => {
        posts.push(await request.json());
        return HttpResponse.json(reservationFixture(), { status: 201 });
      }),
    );
    await reachDetails();
    await user().click(screen.getByRole('button', { name: '予約内容を確認する' }));
    const submit = await screen.findByRole('button', { name: 'この内容で予約する' });
    await user().click(submit);

    // The wizard has asked for the completion page: the booking was answered and handled.
    await waitFor(() => expect(completionPage.requested).toBe(true));
    expect(posts).toHaveLength(1);
    expect(submit).toBeDisabled();
    await user().click(submit);
    expect(posts).toHaveLength(1);

    completionPage.load();
    expect(await screen.findByRole('heading', { name: 'ご予約を受け付けました' })).toBeInTheDocument();
    expect(posts).toHaveLength(1);
  });
});
