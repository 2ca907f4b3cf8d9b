import { Alert, Button, Group, NumberInput, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { fieldErrorsOf } from '#src/lib/api-errors';
import { showNotification, toast } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import { STAFF_PICTURE_PATH, type PatchStaffRequest, type StaffUser } from '#src/shared/schemas/staff';
import { usePatchStaff } from '../api/staff-queries';

/** The server's limit (src/shared/schemas/staff.ts), counted on screen. */
const PROFILE_MAX = 200;

type NominationField = 'is_bookable' | 'nomination_fee' | 'profile' | 'picture_url';
type NominationForm = Pick<StaffUser, NominationField>;

const initialOf = (user: StaffUser): NominationForm => ({
  is_bookable: user.is_bookable,
  nomination_fee: user.nomination_fee,
  profile: user.profile,
  picture_url: user.picture_url,
});

/**
 * 指名・プロフィール: whether customers can choose this staff member, their 指名料 and what the booking screen shows
 * of them. Turning 指名を受け付ける off takes them out of the customers' choice (and of 指名なし) at once; the
 * bookings they already have stay.
 */
export function NominationSection({ user }: { user: StaffUser }) {
  // Keyed by the stored values: after a save the form starts again from what the server answered.
  return <NominationForm key={JSON.stringify(initialOf(user))} user={user} />;
}

function NominationForm({ user }: { user: StaffUser }) {
  const initial = initialOf(user);
  const patch = usePatchStaff(user.id);
  const [form, setForm] = useState(initial);
  const [local, setLocal] = useState<Partial<Record<NominationField, string>>>({});
  const serverFields = fieldErrorsOf(patch.error);
  const errorOf = (name: NominationField) => local[name] ?? serverFields[name];

  const set = <K extends NominationField>(name: K, value: NominationForm[K]) => {
    setForm((current) => ({ ...current, [name]: value }));
    setLocal((current) => ({ ...current, [name]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (patch.isPending) return;
    // The server's rules, said before the round trip.
    const errors: Partial<Record<NominationField, string>> = {};
    if (!Number.isInteger(form.nomination_fee) || form.nomination_fee < 0)
      errors.nomination_fee = MESSAGES.priceInvalid;
    if (form.profile.trim().length > PROFILE_MAX) errors.profile = MESSAGES.profileTooLong;
    const picture = form.picture_url.trim();
    // An uploaded photo (PictureSection) is the app's own path; typed in, only an https URL.
    const ownPhoto = picture.startsWith(STAFF_PICTURE_PATH) && picture === initial.picture_url;
    if (picture && !ownPhoto && !/^https:\/\/[^\s/]+/.test(picture)) errors.picture_url = MESSAGES.pictureUrlInvalid;
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    const next: NominationForm = { ...form, profile: form.profile.trim(), picture_url: picture };
    const changes = Object.fromEntries(
      (Object.keys(next) as NominationField[])
        .filter((name) => next[name] !== initial[name])
        .map((name) => [name, next[name]]),
    ) as PatchStaffRequest;
    if (Object.keys(changes).length === 0) {
      showNotification({ color: 'gray', message: '変更はありません。' });
      return;
    }
    patch.mutate(changes, { onSuccess: () => toast('green', MESSAGES.adminSaved) });
  };

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        指名・プロフィール
      </Title>
      <Text size="sm">お客様が予約のときに担当者を選ぶ画面に表示されます。</Text>
      <form onSubmit={submit} noValidate aria-label="指名・プロフィール">
        <Stack gap="sm" maw={480}>
          <Switch
            label="指名を受け付ける"
            description="オフにすると、お客様はこの管理者を予約できなくなります（入っている予約はそのままです）"
            checked={form.is_bookable}
            onChange={(event) => set('is_bookable', event.currentTarget.checked)}
          />
          <NumberInput
            label="指名料"
            description="指名されたときに料金に加算されます。0円で無料"
            suffix="円"
            min={0}
            max={100_000}
            step={100}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            value={Number.isFinite(form.nomination_fee) ? form.nomination_fee : ''}
            error={errorOf('nomination_fee')}
            onChange={(value) => set('nomination_fee', typeof value === 'number' ? value : Number.NaN)}
          />
          <Textarea
            label="プロフィール"
            description={`${form.profile.length}/${PROFILE_MAX}文字`}
            rows={3}
            value={form.profile}
            error={errorOf('profile')}
            onChange={(event) => set('profile', event.currentTarget.value)}
          />
          <TextInput
            label="写真URL"
            type="url"
            inputMode="url"
            placeholder="https://..."
            description="https:// で始まる画像のURL（下の「写真」でアップロードもできます）。空欄で写真なし"
            value={form.picture_url}
            error={errorOf('picture_url')}
            onChange={(event) => set('picture_url', event.currentTarget.value)}
          />
          {patch.isError && (
            <Alert color="red" role="alert">
              {errorDetail(patch.error, MESSAGES.adminStaffNominationFailed)}
            </Alert>
          )}
          <Group>
            <Button type="submit" disabled={patch.isPending} loading={patch.isPending}>
              保存する
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
