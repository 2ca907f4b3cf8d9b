import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { superuserProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { createTestQueryClient, renderRoute } from '#tests/setup/render';
import { scheduleKeys } from '#src/lib/query-keys';
import type { StaffUser } from '#src/shared/schemas/staff';
import { AddStaffPage } from './add-staff-page';
import { StaffDetailPage } from './staff-detail-page';

const owner: StaffUser = {
  ...superuserProfile,
  is_active: true,
  is_line_linked: false,
  is_bookable: true,
  nomination_fee: 0,
  profile: '',
  picture_url: '',
};
const newcomer: StaffUser = {
  ...owner,
  id: 9,
  username: 'mika',
  full_name: '新人 美香',
  role: 'nailist',
  is_superuser: false,
};

const routes = [
  { path: '/admin/users/new', element: <AddStaffPage /> },
  { path: '/admin/users/:userId', element: <StaffDetailPage /> },
  { path: '/admin/users', element: <p>社員一覧</p> },
];

/**
 * Issue 32 item 6: 受付時間設定's staff select (scheduleKeys.staff(), fresh for five minutes and kept across a reload)
 * must not miss a staff member added or changed on this device.
 */
describe('staff lists after a change on this device', () => {
  let users: StaffUser[];
  beforeEach(() => {
    users = [owner];
    server.use(
      http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)),
      http.get('/api/admin/users/', () => HttpResponse.json(users)),
      http.get('/api/admin/users/9/', () => HttpResponse.json(users.find((user) => user.id === 9))),
    );
  });

  /**
   * Whether 受付時間設定 reads its staff list again when it opens: its copy (here as a reload restores it, without
   * the page's fetcher) is marked stale, which its five minutes of freshness no longer hide.
   */
  const stale = (queryClient: ReturnType<typeof createTestQueryClient>) =>
    queryClient.getQueryState(scheduleKeys.staff())?.isInvalidated;

  function withFreshScheduleStaff() {
    const queryClient = createTestQueryClient();
    // What 受付時間設定 read a minute ago: still fresh for four more.
    queryClient.setQueryData(scheduleKeys.staff(), [owner]);
    return queryClient;
  }

  it('a new staff member is in 受付時間設定’s list at once', async () => {
    server.use(
      http.post('/api/admin/users/', () => {
        users = [owner, newcomer];
        return HttpResponse.json(newcomer, { status: 201 });
      }),
    );
    const queryClient = withFreshScheduleStaff();
    renderRoute('/admin/users/new', { routes, queryClient });
    await userEvent.type(await screen.findByRole('textbox', { name: /ログインID/ }), 'mika');
    await userEvent.type(screen.getByRole('textbox', { name: /氏名/ }), '新人 美香');
    await userEvent.type(screen.getByRole('textbox', { name: /メールアドレス/ }), 'mika@example.com');
    await userEvent.type(screen.getByLabelText(/パスワード/), 'long-enough-password');
    await userEvent.click(screen.getByRole('button', { name: '登録する' }));
    await screen.findByText('社員一覧');
    await waitFor(() => expect(stale(queryClient)).toBe(true));
  });

  it('a new photo reaches every staff list at once', async () => {
    users = [owner, newcomer];
    const withPhoto = { ...newcomer, picture_url: '/api/staff-pictures/0123456789abcdef0123456789abcdef.png' };
    server.use(
      http.post('/api/admin/users/9/picture/', () => {
        users = [owner, withPhoto];
        return HttpResponse.json(withPhoto);
      }),
    );
    const queryClient = withFreshScheduleStaff();
    const { container } = renderRoute('/admin/users/9', { routes, queryClient });
    await screen.findByRole('heading', { name: '写真' });
    const input = container.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File([new Uint8Array([0xff, 0xd8, 0xff])], 'face.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByRole('img', { name: '選んだ写真（保存される範囲）' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'この写真を保存する' }));
    await waitFor(() => expect(stale(queryClient)).toBe(true));
  });
});
