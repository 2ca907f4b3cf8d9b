import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { errorBody } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { WaitlistEntry } from '#src/shared/schemas/waitlist';
import { chooseDay, chooseService, fixWizardClock, setup, user } from '#tests/setup/wizard-steps';

/** キャンセル待ちに登録 on the wizard's date step (waitlist-join.tsx). */
fixWizardClock();

const entry = (body: Record<string, unknown>): WaitlistEntry => ({
  id: 7,
  service_id: Number(body.service_id),
  service_name: 'グラデーションジェル',
  option_ids: [],
  staff_id: null,
  staff_name: null,
  date: String(body.date),
  time_from: (body.time_from as string | undefined) ?? null,
  time_to: (body.time_to as string | undefined) ?? null,
  status: 'waiting',
  created_at: '2030-05-10T10:00:00',
});

function serveJoin(answer?: (body: Record<string, unknown>) => Response) {
  const sent: Array<{ body: Record<string, unknown>; authorization: string | null }> = [];
  server.use(
    http.post('/api/waitlist/', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ body, authorization: request.headers.get('authorization') });
      return answer ? answer(body) : HttpResponse.json(entry(body), { status: 201 });
    }),
  );
  return sent;
}

describe('キャンセル待ちに登録', { timeout: 30_000 }, () => {
  it('offers the full day picked in the calendar, asks first, then sends the menu, day and window', async () => {
    setup();
    const sent = serveJoin();
    renderRoute('/reserve');
    await chooseService();
    await chooseDay('2030年5月14日（予約できます）');
    expect(await screen.findByText(MESSAGES.noSlotsOnDay)).toBeInTheDocument();

    const form = await screen.findByRole('region', { name: MESSAGES.waitlistJoin });
    expect(within(form).getByLabelText(/ご希望の日/)).toHaveValue('2030-05-14');
    await user().selectOptions(within(form).getByLabelText(/開始時刻（から）/), '14:00');
    await user().click(within(form).getByRole('button', { name: '登録する' }));

    // Nothing is sent before the customer confirms.
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.waitlistJoinQuestion('2030年5月14日(火)', 'グラデーションジェル'));
    expect(sent).toEqual([]);
    await user().click(within(dialog).getByRole('button', { name: '登録する' }));

    expect(await screen.findByText(MESSAGES.waitlistJoined)).toBeInTheDocument();
    expect(sent).toEqual([
      {
        body: { service_id: 12, date: '2030-05-14', option_ids: [], time_from: '14:00' },
        authorization: 'Bearer customer-access',
      },
    ]);
  });

  it('opens from its button on any day, and shows the server’s refusal on the form (duplicate, field errors)', async () => {
    setup();
    let round = 0;
    const sent = serveJoin(() => {
      round += 1;
      return round === 1
        ? HttpResponse.json(
            {
              ...errorBody(MESSAGES.waitlistTimeInvalid, 'invalid'),
              fields: { time_to: [MESSAGES.waitlistTimeInvalid] },
            },
            { status: 400 },
          )
        : HttpResponse.json(errorBody(SERVER_MESSAGES.waitlistDuplicate, 'waitlist_duplicate'), { status: 409 });
    });
    // No free start that day: the form registers.
    server.use(http.get('/api/availability/', () => HttpResponse.json([])));
    renderRoute('/reserve');
    await chooseService();
    await user().click(await screen.findByRole('button', { name: MESSAGES.waitlistJoin }));
    const form = await screen.findByRole('region', { name: MESSAGES.waitlistJoin });
    const date = within(form).getByLabelText(/ご希望の日/);
    expect(date).toHaveValue('');
    // Without a day nothing can be sent.
    expect(within(form).getByRole('button', { name: '登録する' })).toBeDisabled();
    await user().type(date, '2030-05-20');

    const join = async () => {
      await user().click(within(form).getByRole('button', { name: '登録する' }));
      await user().click(within(await screen.findByRole('dialog')).getByRole('button', { name: '登録する' }));
    };
    await join();
    const field = within(form).getByLabelText(/開始時刻（まで）/);
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(expect.stringContaining(MESSAGES.waitlistTimeInvalid)),
    );
    await join();
    expect(await within(form).findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.waitlistDuplicate);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toMatchObject({ date: '2030-05-20', service_id: 12 });
    expect(screen.queryByText(MESSAGES.waitlistJoined)).not.toBeInTheDocument();
  });

  it('offers the free starts of the wished window for booking instead of registering (no paid LINE push later)', async () => {
    setup();
    const sent = serveJoin();
    const asked: string[] = [];
    server.use(
      http.get('/api/availability/', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('date') ?? '');
        return HttpResponse.json(['10:00', '10:30', '14:00']);
      }),
    );
    renderRoute('/reserve');
    await chooseService();
    await user().click(await screen.findByRole('button', { name: MESSAGES.waitlistJoin }));
    const form = await screen.findByRole('region', { name: MESSAGES.waitlistJoin });
    await user().type(within(form).getByLabelText(/ご希望の日/), '2030-05-15');
    await user().selectOptions(within(form).getByLabelText(/開始時刻（から）/), '10:30');
    await user().click(within(form).getByRole('button', { name: '登録する' }));

    const free = await within(form).findByRole('status');
    expect(free).toHaveTextContent(MESSAGES.waitlistTimesFree);
    expect(free).toHaveTextContent('2030年5月15日(水)の空き: 10:30、14:00');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user().click(within(free).getByRole('button', { name: '空いている時間から予約する' }));
    await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' });
    expect(await screen.findByRole('button', { name: '14:00' })).toBeInTheDocument();
    expect(asked).toContain('2030-05-15');
    expect(sent).toEqual([]);
  });

  it('the offer link (/reserve?waitlist=<id>) opens that day’s times with the entry’s menu; a gone entry, the menu', async () => {
    setup();
    const reads: string[] = [];
    server.use(
      http.get('/api/waitlist/:id/', ({ params }) => {
        reads.push(String(params.id));
        return params.id === '7'
          ? HttpResponse.json(entry({ service_id: 12, date: '2030-05-15' }))
          : HttpResponse.json(errorBody(SERVER_MESSAGES.waitlistEntryNotFound, 'not_found'), { status: 404 });
      }),
    );
    const first = renderRoute('/reserve?waitlist=7');
    await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' });
    expect(await screen.findByRole('button', { name: '10:30' })).toBeInTheDocument();
    first.unmount();

    renderRoute('/reserve?waitlist=8');
    expect(await screen.findByText(MESSAGES.waitlistEntryGone)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'メニューを選ぶ' })).toBeInTheDocument();
    expect(reads).toEqual(['7', '8']);
  });
});
