import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffUsers } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { StaffUser } from '../../src/shared/schemas/staff';
import {
  loginWithEmulator,
  startTestApp,
  TEST_ADMIN_PASSWORD,
  TEST_ADMIN_USERNAME,
  type TestApp,
} from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createStaff, type StaffRow } from '../helpers/factories';

const PASSWORD = 'staff-password-4567';
const FORBIDDEN = { detail: MESSAGES.forbidden, code: 'permission_denied' };
const OWN_ROLE = { detail: SERVER_MESSAGES.cannotChangeOwnRole, code: 'own_role' };
const USERNAME_TAKEN = {
  detail: SERVER_MESSAGES.usernameTaken,
  code: 'username_taken',
  fields: { username: [SERVER_MESSAGES.usernameTaken] },
};
const USER_KEYS = [
  'email',
  'full_name',
  'id',
  'is_active',
  'is_bookable',
  'is_line_linked',
  'is_superuser',
  'nomination_fee',
  'picture_url',
  'profile',
  'role',
  'username',
];
/** What a new account has for nomination (migration 0009's defaults): bookable, free, no profile or picture. */
const NOMINATION_DEFAULTS = { is_bookable: true, nomination_fee: 0, profile: '', picture_url: '' };

/** Staff accounts (docs/screens.md#staff-detail): superuser only; nobody edits their own role; usernames unique in any case. */
describe(`staff accounts on ${testEngine}`, () => {
  let t: TestApp;
  let admin: StaffRow;
  let ordinary: StaffRow;
  let ordinaryToken: string;
  let adminToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    [admin] = (await t.database.db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME))) as [
      StaffRow,
    ];
    ordinary = await createStaff(t.database.db, t.salonId, {
      username: 'ippan',
      password: PASSWORD,
      email: 'ippan@example.com',
    });
    await t.database.db.update(staffUsers).set({ line_user_id: 'U-ippan' }).where(eq(staffUsers.id, ordinary.id));
    adminToken = (await t.auth.issueTokenPair('staff', admin.id)).access;
    ordinaryToken = (await t.auth.issueTokenPair('staff', ordinary.id)).access;
  });
  afterAll(() => t?.close());

  const create = (token: string, json: Record<string, unknown>) =>
    t.api('/api/admin/users/', { method: 'POST', token, json });
  const patch = (token: string, id: number, json: Record<string, unknown>) =>
    t.api(`/api/admin/users/${id}/`, { method: 'PATCH', token, json });
  const rowOf = async (id: number) => (await t.database.db.select().from(staffUsers).where(eq(staffUsers.id, id)))[0]!;
  const countByName = async (username: string) =>
    (
      await t.database.db
        .select()
        .from(staffUsers)
        .where(eq(sql`lower(${staffUsers.username})`, username.toLowerCase()))
    ).length;
  const valid = (username: string) => ({
    username,
    full_name: '新人 スタッフ',
    email: `${username.trim() || 'x'}@example.com`,
    password: PASSWORD,
  });

  describe('GET /api/admin/users/ and /{id}/', () => {
    it('lists every staff member in id order for a superuser, never with a password hash', async () => {
      const result = await t.api('/api/admin/users/', { token: adminToken });
      expect(result.status).toBe(200);
      const users = result.body as unknown as StaffUser[];
      expect(users.map((user) => user.id)).toEqual([...users.map((user) => user.id)].sort((a, b) => a - b));
      expect(users.map((user) => user.id)).toEqual(expect.arrayContaining([admin.id, ordinary.id]));
      for (const user of users) expect(Object.keys(user).sort()).toEqual(USER_KEYS);
      expect(users.find((user) => user.id === ordinary.id)).toEqual({
        id: ordinary.id,
        username: 'ippan',
        full_name: 'ippan スタッフ',
        email: 'ippan@example.com',
        role: 'nailist',
        is_superuser: false,
        is_active: true,
        is_line_linked: true,
        ...NOMINATION_DEFAULTS,
      });
      expect(result.text).not.toContain('scrypt');
    });

    it('shows one staff member; 404 for an unknown id', async () => {
      const one = await t.api(`/api/admin/users/${admin.id}/`, { token: adminToken });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({
        id: admin.id,
        username: TEST_ADMIN_USERNAME,
        is_superuser: true,
        is_line_linked: false,
      });
      const missing = await t.api('/api/admin/users/999999/', { token: adminToken });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: MESSAGES.staffNotFound, code: 'not_found' });
    });

    it('answers 403 to ordinary staff and 401 to anonymous callers and customer tokens', async () => {
      for (const path of ['/api/admin/users/', `/api/admin/users/${admin.id}/`]) {
        const asStaff = await t.api(path, { token: ordinaryToken });
        expect(asStaff.status, path).toBe(403);
        expect(asStaff.body).toEqual(FORBIDDEN);
        expect((await t.api(path)).status, path).toBe(401);
      }
      const customer = await loginWithEmulator(t, 'staff-accounts-customer');
      const asCustomer = await t.api('/api/admin/users/', { token: customer.access });
      expect(asCustomer.status).toBe(401);
      expect(asCustomer.body.code).toBe('token_not_valid');
    });
  });

  describe('POST /api/admin/users/', () => {
    it('creates an ordinary staff member by default, who can then log in with the password', async () => {
      const result = await create(adminToken, valid('Shinjin'));
      expect(result.status).toBe(201);
      expect(result.body).toEqual({
        id: expect.any(Number),
        username: 'Shinjin',
        full_name: '新人 スタッフ',
        email: 'Shinjin@example.com',
        role: 'nailist',
        is_superuser: false,
        is_active: true,
        is_line_linked: false,
        ...NOMINATION_DEFAULTS,
      });
      const row = await rowOf(Number(result.body.id));
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
      expect((await t.login('shinjin', PASSWORD)).status).toBe(200);
      expect((await t.login('shinjin', 'wrong-password')).status).toBe(401);
    });

    it('creates a superuser when asked', async () => {
      const result = await create(adminToken, { ...valid('tencho'), is_superuser: true });
      expect(result.status).toBe(201);
      expect(result.body.is_superuser).toBe(true);
      const token = (await t.tokensFor('tencho', PASSWORD)).access;
      expect((await t.api('/api/admin/users/', { token })).status).toBe(200);
    });

    it('refuses a username already taken in any letter case with a field message', async () => {
      for (const username of ['ADMIN', 'shinjin', ' Ippan ']) {
        const result = await create(adminToken, valid(username));
        expect(result.status, username).toBe(400);
        expect(result.body).toEqual(USERNAME_TAKEN);
      }
      expect(await countByName('admin')).toBe(1);
    });

    it('two parallel creates of one username: one 201, one 400, one row', async () => {
      for (let round = 0; round < 3; round += 1) {
        const name = `parallel${round}`;
        const results = await Promise.all([
          create(adminToken, valid(name)),
          create(adminToken, valid(name.toUpperCase())),
        ]);
        expect(results.map((result) => result.status).sort(), `round ${round}`).toEqual([201, 400]);
        expect(results.find((result) => result.status === 400)!.body).toEqual(USERNAME_TAKEN);
        expect(await countByName(name)).toBe(1);
      }
    });

    it('refuses bad input field by field and writes nothing', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ ...valid('badpass'), password: 'short77' }, 'password', MESSAGES.passwordTooShort],
        [{ ...valid('badpass2'), password: 'x'.repeat(1025) }, 'password', MESSAGES.tooLong],
        [{ ...valid('bademail'), email: 'not-an-email' }, 'email', MESSAGES.emailInvalid],
        [{ ...valid('noemail'), email: '' }, 'email', MESSAGES.emailInvalid],
        [{ ...valid('noname'), full_name: '  ' }, 'full_name', MESSAGES.fieldRequired],
        [{ ...valid('x'), username: 'u'.repeat(151) }, 'username', MESSAGES.tooLong],
        [{ ...valid('x'), username: '' }, 'username', MESSAGES.fieldRequired],
        [{ ...valid('badrole'), is_superuser: 'yes' }, 'is_superuser', ''],
      ];
      for (const [body, field, message] of cases) {
        const result = await create(adminToken, body);
        expect(result.status, field).toBe(400);
        expect(result.body.code).toBe('invalid');
        const fields = result.body.fields as Record<string, string[]>;
        expect(Object.keys(fields), field).toEqual([field]);
        if (message) expect(fields[field]).toEqual([message]);
        expect(await countByName(String(body.username))).toBe(0);
      }
      const { password: _omitted, ...noPassword } = valid('nopassword');
      expect((await create(adminToken, noPassword)).status).toBe(400);
      expect(await countByName('nopassword')).toBe(0);
    });

    it('answers 403 to ordinary staff and creates nothing', async () => {
      const result = await create(ordinaryToken, { ...valid('sneaky'), is_superuser: true });
      expect(result.status).toBe(403);
      expect(await countByName('sneaky')).toBe(0);
    });
  });

  describe('PATCH /api/admin/users/{id}/', () => {
    it("changes another staff member's name, e-mail, role and password", async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'henko', password: PASSWORD });
      const result = await patch(adminToken, staff.id, {
        full_name: '変更 後',
        email: 'henko@example.com',
        is_superuser: true,
        password: 'new-password-890',
      });
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({
        id: staff.id,
        full_name: '変更 後',
        email: 'henko@example.com',
        is_superuser: true,
      });
      expect((await t.login('henko', PASSWORD)).status).toBe(401);
      const token = (await t.tokensFor('henko', 'new-password-890')).access;
      expect((await t.api('/api/admin/users/', { token })).status).toBe(200);
      // And back: the role is the database's, read on every request.
      expect((await patch(adminToken, staff.id, { is_superuser: false })).body.is_superuser).toBe(false);
      expect((await t.api('/api/admin/users/', { token })).status).toBe(403);
    });

    it('deactivates an account: its tokens stop working and it cannot log in', async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'taishoku', password: PASSWORD });
      const token = (await t.tokensFor('taishoku', PASSWORD)).access;
      expect((await t.api('/api/admin/me/', { token })).status).toBe(200);
      const result = await patch(adminToken, staff.id, { is_active: false });
      expect(result.status).toBe(200);
      expect(result.body.is_active).toBe(false);
      expect((await t.api('/api/admin/me/', { token })).status).toBe(401);
      expect((await t.login('taishoku', PASSWORD)).status).toBe(401);
    });

    it('refuses changes to your own role or active flag with 403, and changes nothing', async () => {
      const before = await rowOf(admin.id);
      for (const body of [
        { is_superuser: false },
        { is_active: false },
        { full_name: '変えたい', is_superuser: false },
      ]) {
        const result = await patch(adminToken, admin.id, body);
        expect(result.status, JSON.stringify(body)).toBe(403);
        expect(result.body).toEqual(OWN_ROLE);
      }
      expect(await rowOf(admin.id)).toEqual(before);
      // Your own name and the same role as now are fine.
      const own = await patch(adminToken, admin.id, { full_name: '管理者 本人', is_superuser: true, is_active: true });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ full_name: '管理者 本人', is_superuser: true, is_active: true });
      expect((await t.login(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD)).status).toBe(200);
    });

    it('two superusers demoting each other at once: one wins, one is refused, one superuser remains', async () => {
      const [one, two] = await Promise.all([
        createStaff(t.database.db, t.salonId, { username: 'sup-one', isSuperuser: true }),
        createStaff(t.database.db, t.salonId, { username: 'sup-two', isSuperuser: true }),
      ]);
      const [oneToken, twoToken] = await Promise.all([
        t.auth.issueTokenPair('staff', one.id).then((pair) => pair.access),
        t.auth.issueTokenPair('staff', two.id).then((pair) => pair.access),
      ]);
      const results = await Promise.all([
        patch(oneToken, two.id, { is_superuser: false }),
        patch(twoToken, one.id, { is_superuser: false }),
      ]);
      expect(results.map((result) => result.status).sort()).toEqual([200, 403]);
      const roles = [(await rowOf(one.id)).is_superuser, (await rowOf(two.id)).is_superuser];
      expect(roles.filter(Boolean)).toHaveLength(1);
    });

    it('refuses bad input, unknown ids and ordinary staff', async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'kensa', email: 'kensa@example.com' });
      const before = await rowOf(staff.id);
      for (const [body, field] of [
        [{ email: 'bad' }, 'email'],
        [{ full_name: '' }, 'full_name'],
        [{ password: 'short' }, 'password'],
        [{ is_active: 'no' }, 'is_active'],
      ] as Array<[Record<string, unknown>, string]>) {
        const result = await patch(adminToken, staff.id, { ...body });
        expect(result.status, field).toBe(400);
        expect(Object.keys(result.body.fields as object)).toEqual([field]);
      }
      expect(await rowOf(staff.id)).toEqual(before);
      const missing = await patch(adminToken, 999999, { full_name: '誰' });
      expect(missing.status).toBe(404);
      const asOrdinary = await patch(ordinaryToken, staff.id, { is_superuser: true });
      expect(asOrdinary.status).toBe(403);
      expect(asOrdinary.body).toEqual(FORBIDDEN);
      const self = await patch(ordinaryToken, ordinary.id, { is_superuser: true });
      expect(self.status).toBe(403);
      expect(await rowOf(staff.id)).toEqual(before);
      expect((await rowOf(ordinary.id)).is_superuser).toBe(false);
    });
  });

  /** 指名 (issue 15): what customers see when they choose their nailist, and whether they can choose them at all. */
  describe('PATCH /api/admin/users/{id}/ nomination fields', () => {
    type PublicStaff = { id: number; name: string; picture_url: string; profile: string; nomination_fee: string };
    const publicStaff = async () => {
      const result = await t.api('/api/staff/');
      expect(result.status).toBe(200);
      return result.body as unknown as PublicStaff[];
    };
    /** Customers are only offered staff who work at all: a Sunday shift through the API. */
    const giveShift = async (staffId: number) => {
      const result = await t.api('/api/admin/shifts/', {
        method: 'PUT',
        token: adminToken,
        json: { user_id: staffId, days: [{ weekday: 0, start_time: '10:00', end_time: '18:00' }] },
      });
      expect(result.status, result.text).toBe(200);
    };

    it('sets 指名料, profile and picture; the public staff list shows them, the fee as a string', async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'shimei', fullName: '指名 花子' });
      await giveShift(staff.id);
      const body = {
        nomination_fee: 1100,
        profile: 'ニュアンスアートが得意です',
        picture_url: 'https://example.com/shimei.jpg',
      };
      const result = await patch(adminToken, staff.id, body);
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ id: staff.id, is_bookable: true, ...body });
      expect(await rowOf(staff.id)).toMatchObject(body);
      const listed = (await publicStaff()).find((member) => member.id === staff.id);
      expect(listed).toEqual({
        id: staff.id,
        name: '指名 花子',
        picture_url: 'https://example.com/shimei.jpg',
        profile: 'ニュアンスアートが得意です',
        nomination_fee: '1100',
      });
      // 200 characters is the limit, not over it; an empty picture clears it.
      const edge = await patch(adminToken, staff.id, { profile: 'あ'.repeat(200), picture_url: '', nomination_fee: 0 });
      expect(edge.status).toBe(200);
      expect(edge.body).toMatchObject({ profile: 'あ'.repeat(200), picture_url: '', nomination_fee: 0 });
      expect((await publicStaff()).find((member) => member.id === staff.id)).toMatchObject({
        picture_url: '',
        nomination_fee: '0',
      });
    });

    it('a non-bookable or inactive staff member disappears from GET /api/staff/, and comes back', async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'yasumi' });
      const listedIds = async () => (await publicStaff()).map((member) => member.id);
      // Bookable but without any working time: not offered, every date would be empty.
      expect(await listedIds()).not.toContain(staff.id);
      await giveShift(staff.id);
      expect(await listedIds()).toContain(staff.id);
      const version = async () => (await rowOf(staff.id)).schedule_version;
      const start = await version();

      const off = await patch(adminToken, staff.id, { is_bookable: false });
      expect(off.status).toBe(200);
      expect(off.body.is_bookable).toBe(false);
      expect(await listedIds()).not.toContain(staff.id);
      // A booking deciding against the old answer at this moment is decided again
      // (server/features/reservations/book.ts).
      expect(await version()).toBe(start + 1);
      // Saving the same value, or a profile only, is no change of who can be booked.
      await patch(adminToken, staff.id, { is_bookable: false, profile: 'お休み中' });
      expect(await version()).toBe(start + 1);

      expect((await patch(adminToken, staff.id, { is_bookable: true })).status).toBe(200);
      expect(await listedIds()).toContain(staff.id);
      expect((await patch(adminToken, staff.id, { is_active: false })).status).toBe(200);
      expect(await listedIds()).not.toContain(staff.id);
      expect(await version()).toBe(start + 3);
      expect((await patch(adminToken, staff.id, { is_active: true })).status).toBe(200);
      expect(await listedIds()).toContain(staff.id);
    });

    it('refuses a negative fee, an http:// picture and a 201-character profile with field messages; writes nothing', async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'kakunin' });
      const before = await rowOf(staff.id);
      for (const [body, field, message] of [
        [{ nomination_fee: -1 }, 'nomination_fee', MESSAGES.priceInvalid],
        [{ nomination_fee: 500.5 }, 'nomination_fee', MESSAGES.priceInvalid],
        [{ picture_url: 'http://example.com/a.jpg' }, 'picture_url', MESSAGES.pictureUrlInvalid],
        [{ profile: 'あ'.repeat(201) }, 'profile', MESSAGES.profileTooLong],
        [{ is_bookable: 'yes' }, 'is_bookable', ''],
        // One bad field refuses the whole change.
        [{ profile: 'ok', nomination_fee: -100 }, 'nomination_fee', MESSAGES.priceInvalid],
      ] as Array<[Record<string, unknown>, string, string]>) {
        const result = await patch(adminToken, staff.id, body);
        expect(result.status, JSON.stringify(body)).toBe(400);
        expect(result.body.code).toBe('invalid');
        const fields = result.body.fields as Record<string, string[]>;
        expect(Object.keys(fields)).toEqual([field]);
        if (message) expect(fields[field]).toEqual([message]);
      }
      expect(await rowOf(staff.id)).toEqual(before);
    });

    it('ordinary staff get 403 for nomination fields, even their own', async () => {
      const before = await rowOf(ordinary.id);
      for (const body of [{ nomination_fee: 5000 }, { is_bookable: false }, { profile: '自己紹介' }]) {
        const result = await patch(ordinaryToken, ordinary.id, body);
        expect(result.status, JSON.stringify(body)).toBe(403);
        expect(result.body).toEqual(FORBIDDEN);
      }
      expect(await rowOf(ordinary.id)).toEqual(before);
    });
  });

  /** The staff detail's account actions (issue 18): deactivate, reactivate and a new password, each ending sessions. */
  describe('account actions: deactivate, reactivate, reset the password', () => {
    const me = (token: string) => t.api('/api/admin/me/', { token });
    const refresh = (token: string) => t.api('/api/token/refresh/', { method: 'POST', json: { refresh: token } });

    it('deactivate: login refused, old access and refresh tokens 401; reactivate: the same password works again', async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'kyushoku', password: PASSWORD });
      const old = await t.tokensFor('kyushoku', PASSWORD);
      expect((await me(old.access)).status).toBe(200);

      const off = await patch(adminToken, staff.id, { is_active: false });
      expect(off.status).toBe(200);
      expect(off.body).toMatchObject({ id: staff.id, is_active: false });
      expect((await rowOf(staff.id)).is_active).toBe(false);
      expect((await t.login('kyushoku', PASSWORD)).status).toBe(401);
      expect((await me(old.access)).status).toBe(401);
      expect((await refresh(old.refresh)).status).toBe(401);
      const listed = (await t.api('/api/admin/users/', { token: adminToken })).body as unknown as StaffUser[];
      expect(listed.find((user) => user.id === staff.id)?.is_active).toBe(false);

      const on = await patch(adminToken, staff.id, { is_active: true });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ id: staff.id, is_active: true });
      // Reactivating does not bring the ended sessions back.
      expect((await me(old.access)).status).toBe(401);
      expect((await refresh(old.refresh)).status).toBe(401);
      const again = await t.tokensFor('kyushoku', PASSWORD);
      expect((await me(again.access)).status).toBe(200);
      expect((await refresh(again.refresh)).status).toBe(200);
    });

    it('reset the password: the old one fails, the new one works, old access and refresh tokens 401', async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'wasureta', password: PASSWORD });
      const old = await t.tokensFor('wasureta', PASSWORD);
      const before = await rowOf(staff.id);

      const result = await patch(adminToken, staff.id, { password: 'reset-password-246' });
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ id: staff.id, is_active: true });
      expect(result.text).not.toContain('reset-password-246');
      const after = await rowOf(staff.id);
      expect(after.password_hash).not.toBe(before.password_hash);
      expect(after.token_version).toBe(before.token_version + 1);

      expect((await t.login('wasureta', PASSWORD)).status).toBe(401);
      expect((await me(old.access)).status).toBe(401);
      expect((await refresh(old.refresh)).status).toBe(401);
      const fresh = await t.tokensFor('wasureta', 'reset-password-246');
      expect((await me(fresh.access)).status).toBe(200);
    });

    it('a too-short new password is refused with the field message and changes nothing', async () => {
      const staff = await createStaff(t.database.db, t.salonId, { username: 'mijikai', password: PASSWORD });
      const before = await rowOf(staff.id);
      const result = await patch(adminToken, staff.id, { password: 'short77' });
      expect(result.status).toBe(400);
      expect(result.body.fields).toEqual({ password: [MESSAGES.passwordTooShort] });
      expect(await rowOf(staff.id)).toEqual(before);
      expect((await t.login('mijikai', PASSWORD)).status).toBe(200);
    });

    it('ordinary staff get 403 for deactivating, reactivating or resetting a password, even their own', async () => {
      const target = await createStaff(t.database.db, t.salonId, { username: 'mamoru', password: PASSWORD });
      const sleeping = await createStaff(t.database.db, t.salonId, { username: 'nemuri', password: PASSWORD });
      await t.database.db.update(staffUsers).set({ is_active: false }).where(eq(staffUsers.id, sleeping.id));
      const rows = await Promise.all([target.id, sleeping.id, ordinary.id].map(rowOf));
      for (const [id, body] of [
        [target.id, { is_active: false }],
        [sleeping.id, { is_active: true }],
        [target.id, { password: 'taken-over-1357' }],
        [ordinary.id, { password: 'my-own-pass-1357' }],
      ] as Array<[number, Record<string, unknown>]>) {
        const result = await patch(ordinaryToken, id, body);
        expect(result.status, JSON.stringify(body)).toBe(403);
        expect(result.body).toEqual(FORBIDDEN);
      }
      expect(await Promise.all([target.id, sleeping.id, ordinary.id].map(rowOf))).toEqual(rows);
      expect((await t.login('mamoru', PASSWORD)).status).toBe(200);
      expect((await me(ordinaryToken)).status).toBe(200);
    });

    it('a superuser cannot deactivate themselves: 403 with a Japanese reason, and their session goes on', async () => {
      const own = await createStaff(t.database.db, t.salonId, {
        username: 'jibun',
        password: PASSWORD,
        isSuperuser: true,
      });
      const session = await t.tokensFor('jibun', PASSWORD);
      const before = await rowOf(own.id);
      const result = await patch(session.access, own.id, { is_active: false });
      expect(result.status).toBe(403);
      expect(result.body).toEqual(OWN_ROLE);
      expect(await rowOf(own.id)).toEqual(before);
      expect((await me(session.access)).status).toBe(200);
      expect((await refresh(session.refresh)).status).toBe(200);
      expect((await t.login('jibun', PASSWORD)).status).toBe(200);
    });
  });
});

describe(`staff LINE login rate limit on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW_SECONDS: '600' } });
  });
  afterAll(() => t?.close());

  it('answers the 4th attempt from one address with 429, like the password login', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const result = await t.api('/api/admin/login-line/', { method: 'POST', json: { code: `bad-${attempt}` } });
      expect(result.status, `attempt ${attempt}`).toBe(401);
      expect(result.body).toEqual({ detail: MESSAGES.lineLoginFailed, code: 'line_login_failed' });
    }
    const fourth = await t.api('/api/admin/login-line/', { method: 'POST', json: { code: 'bad-4' } });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ detail: SERVER_MESSAGES.tooManyLoginAttempts, code: 'throttled' });
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    // The password login keeps its own budget.
    expect((await t.login(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD)).status).toBe(200);
  });
});
