import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, setDesktop, superuserProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { StaffUser } from '#src/shared/schemas/staff';
import { AddStaffPage } from './add-staff-page';
import { StaffDetailPage } from './staff-detail-page';
import { StaffListPage } from './staff-list-page';

const routes = [
  { path: '/admin/users', element: <StaffListPage /> },
  { path: '/admin/users/new', element: <AddStaffPage /> },
  { path: '/admin/users/:userId', element: <StaffDetailPage /> },
];

function staff(overrides: Partial<StaffUser> = {}): StaffUser {
  return {
    id: 2,
    username: 'suzuki',
    full_name: '鈴木 一郎',
    email: 'suzuki@example.com',
    role: 'nailist',
    is_superuser: false,
    is_active: true,
    is_line_linked: false,
    is_bookable: true,
    nomination_fee: 0,
    profile: '',
    picture_url: '',
    ...overrides,
  };
}

const USERS = [
  staff({
    id: 1,
    username: 'admin',
    full_name: '店長 花子',
    email: '',
    role: 'owner',
    is_superuser: true,
    is_line_linked: true,
  }),
  staff({ id: 2 }),
  staff({ id: 3, username: 'uketsuke', full_name: '受付 三郎', email: 'desk@example.com', role: 'front_desk' }),
];

let restoreMatchMedia: (() => void) | undefined;

afterEach(async () => {
  restoreMatchMedia?.();
  restoreMatchMedia = undefined;
  await clearNotifications();
});

describe('staff list (社員管理)', () => {
  it('shows a table on wide screens with names, the role in Japanese and 連携済み/未連携; a row opens the detail', async () => {
    restoreMatchMedia = setDesktop(true);
    server.use(
      http.get('/api/admin/users/', () => HttpResponse.json(USERS)),
      http.get('/api/admin/users/2/', () => HttpResponse.json(staff())),
    );
    const { router } = renderRoute('/admin/users', { routes });

    expect(screen.getByRole('heading', { level: 1, name: '社員管理' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '新規追加' })).toHaveAttribute('href', '/admin/users/new');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['氏名', 'ログインID', 'メールアドレス', '権限', 'LINE連携'],
      ['店長 花子', 'admin', '未登録', 'オーナー', '連携済み'],
      ['鈴木 一郎', 'suzuki', 'suzuki@example.com', 'ネイリスト', '未連携'],
      ['受付 三郎', 'uketsuke', 'desk@example.com', '受付', '未連携'],
    ]);
    expect(table).not.toHaveTextContent(/Superuser|N\/A/);
    await userEvent.click(within(rows[2]!).getByText('ネイリスト'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users/2'));
  });

  it('shows cards on phones', async () => {
    server.use(http.get('/api/admin/users/', () => HttpResponse.json(USERS)));
    renderRoute('/admin/users', { routes });
    const card = (await screen.findByText('鈴木 一郎')).closest('a')!;
    expect(card).toHaveAttribute('href', '/admin/users/2');
    expect(card).toHaveTextContent('ログインID: suzuki');
    expect(card).toHaveTextContent('権限: ネイリスト');
    expect(card).toHaveTextContent('LINE連携: 未連携');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('logs a load failure and says so', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get('/api/admin/users/', () => HttpResponse.json({ detail: 'x', code: 'e' }, { status: 500 })));
    renderRoute('/admin/users', { routes });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.adminStaffListLoadFailed);
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });
});

describe('staff detail', () => {
  let writeText: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    server.use(http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)));
    writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });

  it('shows 連携済みです。 for a linked account, with the role ネイリスト', async () => {
    server.use(http.get('/api/admin/users/2/', () => HttpResponse.json(staff({ is_line_linked: true }))));
    renderRoute('/admin/users/2', { routes });
    expect(await screen.findByRole('heading', { level: 1, name: '鈴木 一郎' })).toBeInTheDocument();
    expect(screen.getByText('suzuki')).toBeInTheDocument();
    expect(await screen.findByLabelText(/^権限/, { selector: 'input' })).toHaveValue('ネイリスト');
    expect(screen.getByText('suzuki@example.com')).toBeInTheDocument();
    expect(screen.getByText('連携済みです。')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '連携用URLを生成する' })).not.toBeInTheDocument();
  });

  it('lets the owner choose another account’s role (オーナー, 受付, ネイリスト), saved at once with PATCH role', async () => {
    let body: unknown;
    server.use(
      http.get('/api/admin/users/2/', () => HttpResponse.json(staff())),
      http.get('/api/admin/users/', () => HttpResponse.json(USERS)),
      http.patch('/api/admin/users/2/', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(staff({ role: 'front_desk' }));
      }),
    );
    renderRoute('/admin/users/2', { routes });
    const select = await screen.findByLabelText(/^権限/, { selector: 'input' });
    await userEvent.click(select);
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['オーナー', '受付', 'ネイリスト']);
    await userEvent.click(screen.getByRole('option', { name: '受付' }));
    await waitFor(() => expect(body).toEqual({ role: 'front_desk' }));
    expect(await screen.findByText('権限を「受付」に変更しました。')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^権限/, { selector: 'input' })).toHaveValue('受付'));
  });

  it('generates a read-only link URL (生成中... meanwhile) and copies it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/admin/users/1/', () =>
        HttpResponse.json(staff({ id: 1, username: 'admin', role: 'owner', is_superuser: true })),
      ),
      http.post('/api/admin/users/1/generate-line-link/', async () => {
        await gate;
        return HttpResponse.json(
          { registration_link: 'http://salon.test/register-line/tok', expires_at: '2025-06-02T10:00:00' },
          { status: 201 },
        );
      }),
    );
    renderRoute('/admin/users/1', { routes });
    // Your own role is shown, not offered.
    expect(await screen.findByText('オーナー')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^権限/, { selector: 'input' })).not.toBeInTheDocument();
    expect(screen.getByText('まだ連携されていません。')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '連携用URLを生成する' }));
    expect(await screen.findByRole('button', { name: '生成中...' })).toBeDisabled();
    release();

    const url = await screen.findByLabelText('連携用URL');
    expect(url).toHaveValue('http://salon.test/register-line/tok');
    expect(url).toHaveAttribute('readonly');
    await userEvent.click(screen.getByRole('button', { name: 'コピー' }));
    expect(writeText).toHaveBeenCalledWith('http://salon.test/register-line/tok');
    expect(await screen.findByText(MESSAGES.adminStaffLinkUrlCopied)).toBeInTheDocument();
  });

  it('says 連携用URLの生成に失敗しました。 when generation fails', async () => {
    server.use(
      http.get('/api/admin/users/2/', () => HttpResponse.json(staff())),
      http.post('/api/admin/users/2/generate-line-link/', () =>
        HttpResponse.json({ detail: 'x', code: 'e' }, { status: 500 }),
      ),
    );
    renderRoute('/admin/users/2', { routes });
    await userEvent.click(await screen.findByRole('button', { name: '連携用URLを生成する' }));
    expect(await screen.findByText(MESSAGES.adminStaffLinkUrlFailed)).toBeInTheDocument();
  });

  it('says the staff member was not found', async () => {
    server.use(
      http.get('/api/admin/users/9/', () => HttpResponse.json({ detail: 'x', code: 'not_found' }, { status: 404 })),
    );
    renderRoute('/admin/users/9', { routes });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.staffNotFound);
  });
});

describe('staff account actions (無効化・有効化・パスワード再設定)', () => {
  let patches: unknown[];
  let answer: (body: Record<string, unknown>) => Promise<Response> | Response;
  let current: StaffUser;

  beforeEach(() => {
    patches = [];
    current = staff();
    answer = (body) => {
      current = { ...current, ...(body.is_active === undefined ? {} : { is_active: Boolean(body.is_active) }) };
      return HttpResponse.json(current);
    };
    server.use(
      http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)),
      http.get('/api/admin/users/2/', () => HttpResponse.json(current)),
      http.get('/api/admin/users/', () => HttpResponse.json(USERS)),
      http.patch('/api/admin/users/2/', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        return answer(body);
      }),
    );
  });

  const heading = () => screen.findByRole('heading', { level: 1, name: '鈴木 一郎' });
  const badge = () => screen.getByRole('heading', { level: 1 }).parentElement!;

  it('deactivates only after the confirmation that says they are signed out everywhere; the badge turns 無効', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const plain = answer;
    answer = async (body) => {
      await gate;
      return plain(body);
    };
    renderRoute('/admin/users/2', { routes });
    await heading();
    expect(badge()).toHaveTextContent('有効');

    await userEvent.click(screen.getByRole('button', { name: 'このアカウントを無効にする' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.adminStaffDeactivateConfirm('鈴木 一郎'));
    expect(dialog).toHaveTextContent('すべての端末でログアウト');
    await userEvent.click(within(dialog).getByRole('button', { name: '戻る' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(patches).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'このアカウントを無効にする' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '無効にする' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'このアカウントを無効にする' })).toBeDisabled());
    release();

    expect(await screen.findByText(MESSAGES.adminStaffDeactivated)).toBeInTheDocument();
    expect(patches).toEqual([{ is_active: false }]);
    expect(await screen.findByRole('button', { name: 'このアカウントを有効にする' })).toBeEnabled();
    expect(badge()).toHaveTextContent('無効');
  });

  it('reactivates after confirmation; the badge turns 有効', async () => {
    current = staff({ is_active: false });
    renderRoute('/admin/users/2', { routes });
    await heading();
    expect(badge()).toHaveTextContent('無効');
    await userEvent.click(screen.getByRole('button', { name: 'このアカウントを有効にする' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.adminStaffReactivateConfirm('鈴木 一郎'));
    await userEvent.click(within(dialog).getByRole('button', { name: '有効にする' }));
    expect(await screen.findByText(MESSAGES.adminStaffReactivated)).toBeInTheDocument();
    expect(patches).toEqual([{ is_active: true }]);
    expect(badge()).toHaveTextContent('有効');
    expect(screen.getByRole('button', { name: 'このアカウントを無効にする' })).toBeInTheDocument();
  });

  it("shows the server's reason when the change is refused, and the fallback without one", async () => {
    answer = () =>
      HttpResponse.json({ detail: SERVER_MESSAGES.cannotChangeOwnRole, code: 'own_role' }, { status: 403 });
    renderRoute('/admin/users/2', { routes });
    await heading();
    await userEvent.click(screen.getByRole('button', { name: 'このアカウントを無効にする' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '無効にする' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.cannotChangeOwnRole);
    expect(badge()).toHaveTextContent('有効');

    answer = () => new HttpResponse('<html></html>', { status: 502 });
    await userEvent.click(screen.getByRole('button', { name: 'このアカウントを無効にする' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '無効にする' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.adminStaffStatusFailed));
  });

  it('offers no deactivation of your own account', async () => {
    server.use(http.get('/api/admin/me/', () => HttpResponse.json({ ...superuserProfile, id: 2 })));
    renderRoute('/admin/users/2', { routes });
    await heading();
    expect(await screen.findByText(MESSAGES.adminStaffCannotDeactivateSelf)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'このアカウントを無効にする' })).not.toBeInTheDocument();
  });

  it('closes the confirmation when the device goes offline, sending nothing', async () => {
    renderRoute('/admin/users/2', { routes });
    await heading();
    await userEvent.click(screen.getByRole('button', { name: 'このアカウントを無効にする' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      window.dispatchEvent(new Event('offline'));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(patches).toEqual([]);
    } finally {
      onLine.mockRestore();
      window.dispatchEvent(new Event('online'));
    }
  });

  describe('パスワードを再設定', () => {
    const newPassword = () => screen.getByLabelText(/新しいパスワード/);
    const confirmPassword = () => screen.getByLabelText(/確認用パスワード/);
    const submit = () => userEvent.click(screen.getByRole('button', { name: 'パスワードを再設定' }));

    it('checks both fields before asking: required, 8 characters, the same twice', async () => {
      renderRoute('/admin/users/2', { routes });
      await heading();
      await submit();
      expect(screen.getAllByText(MESSAGES.fieldRequired)).toHaveLength(2);
      await userEvent.type(newPassword(), 'short77');
      await userEvent.type(confirmPassword(), 'short77');
      await submit();
      expect(screen.getByText(MESSAGES.passwordTooShort)).toBeInTheDocument();
      await userEvent.clear(newPassword());
      await userEvent.type(newPassword(), 'new-password-1');
      await submit();
      expect(screen.getByText(MESSAGES.passwordMismatch)).toBeInTheDocument();
      expect(newPassword()).not.toHaveAccessibleDescription(expect.stringContaining(MESSAGES.passwordMismatch));
      expect(confirmPassword()).toHaveAccessibleDescription(expect.stringContaining(MESSAGES.passwordMismatch));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(patches).toEqual([]);
    });

    it('sends the new password only after the confirmation that their sessions end, then clears the form', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const plain = answer;
      answer = async (body) => {
        await gate;
        return plain(body);
      };
      renderRoute('/admin/users/2', { routes });
      await heading();
      await userEvent.type(newPassword(), 'new-password-1');
      await userEvent.type(confirmPassword(), 'new-password-1');
      await submit();
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent(MESSAGES.adminStaffPasswordResetConfirm('鈴木 一郎'));
      await userEvent.click(within(dialog).getByRole('button', { name: '戻る' }));
      expect(patches).toEqual([]);

      await submit();
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '再設定する' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'パスワードを再設定' })).toBeDisabled());
      release();
      expect(await screen.findByText(MESSAGES.adminStaffPasswordReset)).toBeInTheDocument();
      expect(patches).toEqual([{ password: 'new-password-1' }]);
      expect(newPassword()).toHaveValue('');
      expect(confirmPassword()).toHaveValue('');
      expect(screen.getByRole('button', { name: 'パスワードを再設定' })).toBeEnabled();
    });

    it("shows the server's field error under the password and its detail", async () => {
      answer = () =>
        HttpResponse.json(
          { detail: MESSAGES.invalidInput, code: 'invalid', fields: { password: ['サーバーの判断です。'] } },
          { status: 400 },
        );
      renderRoute('/admin/users/2', { routes });
      await heading();
      await userEvent.type(newPassword(), 'new-password-1');
      await userEvent.type(confirmPassword(), 'new-password-1');
      await submit();
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '再設定する' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.invalidInput);
      expect(screen.getByText('サーバーの判断です。')).toBeInTheDocument();
      expect(newPassword()).toHaveAccessibleDescription(expect.stringContaining('サーバーの判断です。'));
    });
  });
});

describe('add staff (社員の新規追加)', () => {
  async function fill() {
    await userEvent.type(screen.getByLabelText(/ログインID/), 'tanaka');
    await userEvent.type(screen.getByLabelText(/氏名/), '田中 三郎');
    await userEvent.type(screen.getByLabelText(/メールアドレス/), 'tanaka@example.com');
    await userEvent.type(screen.getByLabelText(/パスワード/), 'password123');
  }

  it('requires ログインID, 氏名, メールアドレス and パスワード, with an email-type field', async () => {
    const posts: Request[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST') posts.push(request);
    });
    renderRoute('/admin/users/new', { routes });
    expect(screen.getByRole('heading', { level: 1, name: '社員の新規追加' })).toBeInTheDocument();
    expect(screen.getByLabelText(/メールアドレス/)).toHaveAttribute('type', 'email');
    // A new account is a ネイリスト unless the owner chooses otherwise.
    expect(screen.getByLabelText(/^権限/, { selector: 'input' })).toHaveValue('ネイリスト');
    await userEvent.click(screen.getByRole('button', { name: '登録する' }));
    expect(screen.getAllByText(MESSAGES.fieldRequired)).toHaveLength(4);
    expect(posts).toHaveLength(0);
  });

  it('registers (登録中... meanwhile), says 新しい管理者を登録しました。 and goes to the staff list', async () => {
    let body: unknown;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/admin/users/', async ({ request }) => {
        body = await request.json();
        await gate;
        return HttpResponse.json(staff({ id: 3, username: 'tanaka', role: 'front_desk' }), { status: 201 });
      }),
      http.get('/api/admin/users/', () => HttpResponse.json(USERS)),
    );
    const { router } = renderRoute('/admin/users/new', { routes });
    await fill();
    expect(screen.getByLabelText(/^権限/, { selector: 'input' })).toHaveValue('ネイリスト');
    await userEvent.click(screen.getByLabelText(/^権限/, { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: '受付' }));
    await userEvent.click(screen.getByRole('button', { name: '登録する' }));
    expect(await screen.findByRole('button', { name: '登録中...' })).toBeDisabled();
    release();

    expect(await screen.findByText(MESSAGES.adminStaffCreated)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users'));
    expect(body).toEqual({
      username: 'tanaka',
      full_name: '田中 三郎',
      email: 'tanaka@example.com',
      password: 'password123',
      role: 'front_desk',
      is_superuser: false,
    });
  });

  it('shows the server detail and field message when the login ID is taken', async () => {
    server.use(
      http.post('/api/admin/users/', () =>
        HttpResponse.json(
          { detail: MESSAGES.invalidInput, code: 'invalid', fields: { username: [SERVER_MESSAGES.usernameTaken] } },
          { status: 400 },
        ),
      ),
    );
    const { router } = renderRoute('/admin/users/new', { routes });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: '登録する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.invalidInput);
    expect(screen.getByText(SERVER_MESSAGES.usernameTaken)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/users/new');
  });

  it('says 登録に失敗しました。入力内容を確認してください。 without a server detail', async () => {
    server.use(http.post('/api/admin/users/', () => new HttpResponse('<html></html>', { status: 502 })));
    renderRoute('/admin/users/new', { routes });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: '登録する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.adminStaffCreateFailed);
  });
});

describe('staff detail: 指名・プロフィール', () => {
  function serveStaff(initial: StaffUser) {
    let current = initial;
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)),
      http.get('/api/admin/users/2/', () => HttpResponse.json(current)),
      http.get('/api/admin/users/', () => HttpResponse.json(USERS)),
      http.patch('/api/admin/users/2/', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        current = { ...current, ...body };
        return HttpResponse.json(current);
      }),
    );
    return patches;
  }
  const section = async () => screen.findByRole('form', { name: '指名・プロフィール' });

  it('shows the stored values and saves only what changed, saying 保存しました。', async () => {
    const patches = serveStaff(staff({ nomination_fee: 500, profile: 'ジェルが得意です' }));
    renderRoute('/admin/users/2', { routes });
    const form = await section();
    const bookable = within(form).getByRole('switch', { name: /^指名を受け付ける/ });
    const fee = within(form).getByRole('textbox', { name: /指名料/ });
    expect(bookable).toBeChecked();
    expect(fee).toHaveValue('500円');
    expect(within(form).getByRole('textbox', { name: /プロフィール/ })).toHaveValue('ジェルが得意です');

    await userEvent.click(bookable);
    await userEvent.clear(fee);
    await userEvent.type(fee, '1000');
    await userEvent.type(within(form).getByRole('textbox', { name: /写真URL/ }), 'https://example.com/suzuki.jpg');
    await userEvent.click(within(form).getByRole('button', { name: '保存する' }));
    await waitFor(() =>
      expect(patches).toEqual([
        { is_bookable: false, nomination_fee: 1000, picture_url: 'https://example.com/suzuki.jpg' },
      ]),
    );
    expect(await screen.findByText(MESSAGES.adminSaved)).toBeInTheDocument();
    expect(within(await section()).getByRole('switch', { name: /^指名を受け付ける/ })).not.toBeChecked();
  });

  it('checks the picture URL and the profile length first, then shows the server’s refusal', async () => {
    const patches = serveStaff(staff());
    renderRoute('/admin/users/2', { routes });
    const form = await section();
    await userEvent.type(within(form).getByRole('textbox', { name: /写真URL/ }), 'http://example.com/a.jpg');
    const profile = within(form).getByRole('textbox', { name: /プロフィール/ });
    await userEvent.click(profile);
    await userEvent.paste('あ'.repeat(201));
    await userEvent.click(within(form).getByRole('button', { name: '保存する' }));
    expect(await within(form).findByText(MESSAGES.pictureUrlInvalid)).toBeInTheDocument();
    expect(within(form).getByText(MESSAGES.profileTooLong)).toBeInTheDocument();
    expect(patches).toEqual([]);

    server.use(
      http.patch('/api/admin/users/2/', () =>
        HttpResponse.json(
          { detail: MESSAGES.invalidInput, code: 'invalid', fields: { nomination_fee: [MESSAGES.priceInvalid] } },
          { status: 400 },
        ),
      ),
    );
    await userEvent.clear(within(form).getByRole('textbox', { name: /写真URL/ }));
    await userEvent.clear(profile);
    await userEvent.type(profile, 'よろしくお願いします');
    await userEvent.click(within(form).getByRole('button', { name: '保存する' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(MESSAGES.invalidInput);
    expect(within(form).getByText(MESSAGES.priceInvalid)).toBeInTheDocument();
  });
});
