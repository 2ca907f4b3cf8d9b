import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { reservationFixture } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { chooseDay, confirmMenu, fixWizardClock, pickService, setup, user } from '#tests/setup/wizard-steps';

/** /reserve's options and 指名 step, and how the choice travels to the calendar, the times and the booking. */
fixWizardClock();

/** Every query string the calendar and the time grid send, and every booking body. */
function record() {
  const seen = {
    bookableDates: [] as URLSearchParams[],
    availability: [] as URLSearchParams[],
    posts: [] as unknown[],
  };
  server.use(
    http.get('/api/bookable-dates/', ({ request }) => {
      seen.bookableDates.push(new URL(request.url).searchParams);
      return HttpResponse.json(['2030-05-15']);
    }),
    http.get('/api/availability/', ({ request }) => {
      seen.availability.push(new URL(request.url).searchParams);
      return HttpResponse.json(['10:00', '10:30']);
    }),
    http.post('/api/reservations/', async ({ request }) => {
      seen.posts.push(await request.json());
      return HttpResponse.json(reservationFixture(), { status: 201 });
    }),
  );
  return seen;
}

async function bookFromCalendar() {
  await chooseDay('2030年5月15日（予約できます）');
  await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' });
  await user().click(await screen.findByRole('button', { name: '10:30' }));
  await user().click(await screen.findByRole('button', { name: '予約内容を確認する' }));
  await screen.findByRole('heading', { level: 2, name: '予約内容の確認' });
  // The step is a lazy chunk: its summary follows the heading.
  await screen.findByRole('button', { name: 'この内容で予約する' });
}

const total = () => screen.getByRole('status');

describe('/reserve wizard: options and 指名', () => {
  it('adds each option and the 指名料 to the total at once', async () => {
    setup();
    renderRoute('/reserve');
    await pickService();
    expect(screen.getByText('ステップ 2 / 6')).toBeInTheDocument();
    expect(total()).toHaveTextContent('合計 1時間半 ¥6,600');

    await user().click(screen.getByRole('checkbox', { name: 'ジェルオフ' }));
    expect(total()).toHaveTextContent('合計 2時間 ¥7,700');
    await user().click(screen.getByRole('checkbox', { name: 'ストーン10粒' }));
    expect(total()).toHaveTextContent('合計 2時間10分 ¥8,250');

    await user().click(screen.getByRole('radio', { name: '佐藤 美咲 指名料 +¥1,100' }));
    expect(total()).toHaveTextContent('合計 2時間10分 ¥9,350');
    await user().click(screen.getByRole('radio', { name: '鈴木 彩' }));
    expect(total()).toHaveTextContent('合計 2時間10分 ¥8,250');

    await user().click(screen.getByRole('checkbox', { name: 'ジェルオフ' }));
    expect(total()).toHaveTextContent('合計 1時間40分 ¥7,150');
  });

  it('keeps the chosen menu, options, nailist and total in sight on the date and time steps, each start with its end', async () => {
    setup();
    record();
    renderRoute('/reserve');
    await pickService();
    await user().click(screen.getByRole('checkbox', { name: 'ジェルオフ' }));
    await user().click(screen.getByRole('radio', { name: '佐藤 美咲 指名料 +¥1,100' }));
    await confirmMenu();
    const chosen = () => screen.getByRole('region', { name: '選んだ内容' });
    const expected = ['グラデーションジェル + ジェルオフ', '担当: 佐藤 美咲（指名）', '合計 2時間 ¥8,800'];
    await waitFor(() => expect(chosen()).toHaveTextContent(expected.join('')));
    await chooseDay('2030年5月15日（予約できます）');
    await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' });
    await waitFor(() => expect(chosen()).toHaveTextContent(expected.join('')));
    const starts = within(screen.getByRole('group', { name: '開始時刻' })).getAllByRole('button');
    expect(starts.map((button) => button.textContent)).toEqual(['10:00〜12:00', '10:30〜12:30']);
  });

  it('offers 指名なし first and chosen, then each nailist with picture, profile and fee', async () => {
    setup();
    renderRoute('/reserve');
    await pickService();
    const group = screen.getByRole('radiogroup', { name: 'スタッフ指名' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['none', '2', '3']);
    expect(within(group).getByRole('radio', { name: '指名なし' })).toBeChecked();
    expect(within(group).getByRole('img', { name: '佐藤 美咲' })).toHaveAttribute(
      'src',
      'https://example.com/misaki.jpg',
    );
    expect(within(group).getByRole('radio', { name: /佐藤 美咲/ })).toHaveAccessibleDescription(
      'ニュアンスアートが得意です。',
    );
    // No picture and a free nomination: neither an image nor a fee.
    expect(within(group).queryByRole('img', { name: '鈴木 彩' })).not.toBeInTheDocument();
    expect(within(group).getByRole('radio', { name: '鈴木 彩' })).toBeInTheDocument();
  });

  it('sends the named nailist and the options to the calendar, the times and the booking, and confirms the totals', async () => {
    setup();
    const seen = record();
    renderRoute('/reserve');
    await pickService();
    await user().click(screen.getByRole('checkbox', { name: 'ストーン10粒' }));
    await user().click(screen.getByRole('checkbox', { name: 'ジェルオフ' }));
    await user().click(screen.getByRole('radio', { name: '佐藤 美咲 指名料 +¥1,100' }));
    await confirmMenu();
    await bookFromCalendar();

    for (const params of [...seen.bookableDates, ...seen.availability]) {
      expect(params.get('service_id')).toBe('12');
      expect(params.get('staff_id')).toBe('2');
      // In the menu's order, not the order they were ticked.
      expect(params.get('option_ids')).toBe('21,22');
    }
    expect(seen.bookableDates.length).toBeGreaterThan(0);
    expect(seen.availability.length).toBeGreaterThan(0);

    expect(summary()).toEqual(
      expect.arrayContaining([
        ['メニュー', 'グラデーションジェル（1時間半 ¥6,600）'],
        ['オプション', 'ジェルオフ（+30分 +¥1,100）、ストーン10粒（+10分 +¥550）'],
        ['指名', '佐藤 美咲'],
        ['指名料', '¥1,100'],
        ['所要時間（合計）', '2時間10分'],
        ['料金（合計）', '¥9,350'],
        ['日時', '2030年5月15日(水) 10:30〜12:40'],
      ]),
    );

    await user().click(screen.getByRole('button', { name: 'この内容で予約する' }));
    await waitFor(() => expect(seen.posts).toHaveLength(1));
    expect(seen.posts[0]).toMatchObject({ service: 12, staff_id: 2, option_ids: [21, 22] });
  });

  it('sends no staff_id and no option_ids for 指名なし without options', async () => {
    setup();
    const seen = record();
    renderRoute('/reserve');
    await pickService();
    // Named, then back to 指名なし.
    await user().click(screen.getByRole('radio', { name: '鈴木 彩' }));
    await user().click(screen.getByRole('radio', { name: '指名なし' }));
    await confirmMenu();
    await bookFromCalendar();

    for (const params of [...seen.bookableDates, ...seen.availability]) {
      expect(params.has('staff_id')).toBe(false);
      expect(params.has('option_ids')).toBe(false);
    }
    expect(summary()).toEqual(expect.arrayContaining([['指名', '指名なし']]));
    expect(summary().map(([label]) => label)).not.toContain('指名料');

    await user().click(screen.getByRole('button', { name: 'この内容で予約する' }));
    await waitFor(() => expect(seen.posts).toHaveLength(1));
    expect(seen.posts[0]).not.toHaveProperty('staff_id');
    expect(seen.posts[0]).toMatchObject({ option_ids: [] });
  });

  it('clears the options and the day when another menu is chosen', async () => {
    setup();
    renderRoute('/reserve');
    await pickService();
    await user().click(screen.getByRole('checkbox', { name: 'ジェルオフ' }));
    await user().click(screen.getByRole('radio', { name: '佐藤 美咲 指名料 +¥1,100' }));
    await confirmMenu();
    await chooseDay('2030年5月15日（予約できます）');
    await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' });
    await user().click(screen.getByRole('button', { name: '← 日付選択に戻る' }));
    await user().click(await screen.findByRole('button', { name: '← メニュー選択に戻る' }));
    await user().click(await screen.findByRole('button', { name: '← メニュー一覧に戻る' }));
    await pickService('ワンカラージェル 1時間 ¥5,500');
    // This menu has no options; the named nailist stays.
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(total()).toHaveTextContent('合計 1時間 ¥6,600');
    await user().click(screen.getByRole('button', { name: '← メニュー一覧に戻る' }));
    await pickService();
    expect(screen.getByRole('checkbox', { name: 'ジェルオフ' })).not.toBeChecked();
    await confirmMenu();
    const day = await screen.findByRole('button', { name: '2030年5月15日（予約できます）' });
    expect(day).not.toHaveAttribute('data-selected');
  });

  it('still lets the customer book 指名なし when the nailists cannot be loaded', async () => {
    setup();
    server.use(http.get('/api/staff/', () => HttpResponse.error()));
    renderRoute('/reserve');
    await user().click(await screen.findByRole('button', { name: 'グラデーションジェル 1時間半 ¥6,600' }));
    expect(await screen.findByText('指名できるスタッフの取得に失敗しました。')).toBeInTheDocument();
    await confirmMenu();
  });
});

/** The confirmation's rows as [label, value]. */
function summary(): Array<[string, string]> {
  const list = document.querySelector('dl');
  if (!list) return [];
  const terms = [...list.querySelectorAll('dt')];
  return terms.map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']);
}
