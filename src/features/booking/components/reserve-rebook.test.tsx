import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  baseCustomerHandlers,
  errorBody,
  RESERVATION_NUMBER,
  reservationFixture,
} from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { lineLoginNavigation } from '#src/lib/line-login';
import { paths } from '#src/lib/paths';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { fixWizardClock, setup, user } from '#tests/setup/wizard-steps';

/** /reserve?rebook=<number> (前回と同じで予約): the wizard filled in from an earlier visit. */
fixWizardClock();
afterEach(() => window.sessionStorage.clear());

const REBOOK = paths.rebook(RESERVATION_NUMBER);

/** A completed visit of グラデーションジェル with ジェルオフ and an option since retired, 佐藤 美咲 named. */
const visit = (overrides: Partial<Reservation> = {}) =>
  reservationFixture({
    status: 'completed',
    start_time: '2030-04-10T10:00:00',
    end_time: '2030-04-10T12:00:00',
    options: [
      { id: 21, name: 'ジェルオフ', price: '1100', duration_minutes: 30 },
      { id: 99, name: '終了したオプション', price: '550', duration_minutes: 10 },
    ],
    is_nominated: true,
    nomination_fee: '1100',
    staff_id: 2,
    ...overrides,
  });

function serveVisit(answer: Reservation | Response) {
  const seen = { reads: [] as string[], bookableDates: [] as URLSearchParams[] };
  server.use(
    http.get('/api/reservations/:number/', ({ params, request }) => {
      seen.reads.push(`${String(params.number)} ${request.headers.get('authorization') ?? ''}`);
      return answer instanceof Response ? answer : HttpResponse.json(answer);
    }),
    http.get('/api/bookable-dates/', ({ request }) => {
      seen.bookableDates.push(new URL(request.url).searchParams);
      return HttpResponse.json(['2030-05-15']);
    }),
  );
  return seen;
}

describe('/reserve?rebook=', () => {
  it('opens at the calendar with the visit’s menu, its still-offered options and the named nailist', async () => {
    setup();
    const seen = serveVisit(visit());
    renderRoute(REBOOK);
    await screen.findByRole('heading', { level: 2, name: '日付を選ぶ' });
    expect(screen.getByText('ステップ 3 / 6')).toBeInTheDocument();
    expect(seen.reads).toEqual([`${RESERVATION_NUMBER} Bearer customer-access`]);
    await waitFor(() => expect(seen.bookableDates.length).toBeGreaterThan(0));
    for (const params of seen.bookableDates) {
      expect(params.get('service_id')).toBe('12');
      expect(params.get('option_ids')).toBe('21');
      expect(params.get('staff_id')).toBe('2');
    }

    // One step back shows what was filled in, and it can be changed like any choice.
    await user().click(screen.getByRole('button', { name: '← メニュー選択に戻る' }));
    await screen.findByRole('heading', { level: 2, name: 'オプション・指名を選ぶ' });
    // The step is a lazy chunk: its fields follow the heading.
    expect(await screen.findByRole('checkbox', { name: 'ジェルオフ' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'ストーン10粒' })).not.toBeChecked();
    const group = await screen.findByRole('radiogroup', { name: 'スタッフ指名' });
    expect(within(group).getByRole('radio', { name: '佐藤 美咲 指名料 +¥1,100' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('合計 2時間 ¥8,800');
  });

  it('does not name a nailist when the visit had none, or when they can no longer be named', async () => {
    setup();
    const seen = serveVisit(visit({ staff_id: 9 }));
    renderRoute(REBOOK);
    await screen.findByRole('heading', { level: 2, name: '日付を選ぶ' });
    await waitFor(() => expect(seen.bookableDates.length).toBeGreaterThan(0));
    expect(seen.bookableDates.every((params) => !params.has('staff_id'))).toBe(true);
  });

  it('shows the menu with a short message when the visit’s service is no longer offered', async () => {
    setup();
    serveVisit(visit({ service: { id: 77, name: '終了したメニュー', price: '5000', duration_minutes: 60 } }));
    renderRoute(REBOOK);
    expect(await screen.findByText(MESSAGES.rebookServiceGone)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'メニューを選ぶ' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'グラデーションジェル 1時間半 ¥6,600' })).toBeInTheDocument();
  });

  it('shows the menu with a short message when the visit cannot be read (someone else’s: 404)', async () => {
    setup();
    serveVisit(HttpResponse.json(errorBody(MESSAGES.reservationNotFound, 'not_found'), { status: 404 }));
    renderRoute(REBOOK);
    expect(await screen.findByText(MESSAGES.rebookVisitNotFound)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'メニューを選ぶ' })).toBeInTheDocument();
  });

  it('keeps the parameter through the LINE login of a signed-out customer', async () => {
    server.use(...baseCustomerHandlers());
    const navigateTo = vi.spyOn(lineLoginNavigation, 'navigateTo').mockImplementation(() => {});
    renderRoute(REBOOK);
    const button = await screen.findByRole('button', { name: 'LINEでログインして予約する' });
    await waitFor(() => expect(button).toBeEnabled());
    await user().click(button);
    await waitFor(() => expect(navigateTo).toHaveBeenCalled());
    expect(window.sessionStorage.getItem('line_login_return_to')).toBe(REBOOK);
  });
});
