import { Alert, Badge, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { UNCUT_BADGE_STYLES } from '#src/components/status-badge';
import { errorDetail } from '#src/lib/api-client';
import { fieldErrorsOf } from '#src/lib/api-errors';
import { toast } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { MESSAGES } from '#src/shared/messages';
import type { StaffUser } from '#src/shared/schemas/staff';
import { usePatchStaff } from '../api/staff-queries';
import { PASSWORD_MIN_LENGTH } from '#src/shared/constants';

const displayName = (user: StaffUser) => user.full_name || user.username;

export function AccountStatusBadge({ active }: { active: boolean }) {
  return (
    <Badge color={active ? 'green' : 'gray'} styles={UNCUT_BADGE_STYLES} data-active={active}>
      {active ? '有効' : '無効'}
    </Badge>
  );
}

/**
 * 有効/無効 and the action that flips it. Deactivating signs the staff member out everywhere (the server raises
 * their token version and revokes their refresh tokens); nobody deactivates their own account.
 */
export function AccountStatusSection({ user, isSelf }: { user: StaffUser; isSelf: boolean }) {
  const patch = usePatchStaff(user.id);
  const online = useOnline();
  const [confirming, setConfirming] = useState(false);
  const deactivating = user.is_active;

  const onConfirm = () => {
    setConfirming(false);
    patch.mutate(
      { is_active: !user.is_active },
      {
        onSuccess: (updated) =>
          toast('green', updated.is_active ? MESSAGES.adminStaffReactivated : MESSAGES.adminStaffDeactivated),
      },
    );
  };

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        アカウントの状態
      </Title>
      <Text size="sm">
        {user.is_active
          ? '有効です。無効にすると、この管理者はすべての端末でログアウトされ、ログインできなくなります。'
          : `${MESSAGES.staffInactive}有効にすると、これまでのパスワードで再びログインできます。`}
      </Text>
      {isSelf ? (
        <Text size="sm" c="dimmed">
          {MESSAGES.adminStaffCannotDeactivateSelf}
        </Text>
      ) : (
        <Group>
          <Button
            color={deactivating ? 'red' : undefined}
            variant={deactivating ? 'light' : 'filled'}
            onClick={() => setConfirming(true)}
            disabled={patch.isPending}
            loading={patch.isPending}
          >
            {deactivating ? 'このアカウントを無効にする' : 'このアカウントを有効にする'}
          </Button>
        </Group>
      )}
      {patch.isError && (
        <Alert color="red" role="alert">
          {errorDetail(patch.error, MESSAGES.adminStaffStatusFailed)}
        </Alert>
      )}
      <ConfirmDialog
        // Online only: the dialog renders outside the screen's disabled fieldset, so it closes when the device goes offline.
        opened={confirming && online}
        message={
          deactivating
            ? MESSAGES.adminStaffDeactivateConfirm(displayName(user))
            : MESSAGES.adminStaffReactivateConfirm(displayName(user))
        }
        confirmLabel={deactivating ? '無効にする' : '有効にする'}
        cancelLabel="戻る"
        color={deactivating ? 'red' : undefined}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}

type PasswordField = 'password' | 'confirm';

/** パスワードを再設定: a new password typed twice, then a confirmation that the staff member's sessions end. */
export function PasswordResetSection({ user, isSelf }: { user: StaffUser; isSelf: boolean }) {
  const patch = usePatchStaff(user.id);
  const online = useOnline();
  const [values, setValues] = useState<Record<PasswordField, string>>({ password: '', confirm: '' });
  const [local, setLocal] = useState<Partial<Record<PasswordField, string>>>({});
  const [confirming, setConfirming] = useState(false);
  const serverFields = fieldErrorsOf(patch.error);
  const errorOf = (name: PasswordField) => local[name] ?? (name === 'password' ? serverFields.password : undefined);

  const set = (name: PasswordField) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [name]: value }));
    setLocal((current) => ({ ...current, [name]: undefined }));
    if (patch.isError) patch.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (patch.isPending) return;
    const errors: Partial<Record<PasswordField, string>> = {};
    if (!values.password) errors.password = MESSAGES.fieldRequired;
    else if (values.password.length < PASSWORD_MIN_LENGTH) errors.password = MESSAGES.passwordTooShort;
    if (!values.confirm) errors.confirm = MESSAGES.fieldRequired;
    else if (values.password && values.confirm !== values.password) errors.confirm = MESSAGES.passwordMismatch;
    setLocal(errors);
    if (Object.keys(errors).length === 0) setConfirming(true);
  };

  const onConfirm = () => {
    setConfirming(false);
    patch.mutate(
      { password: values.password },
      {
        onSuccess: () => {
          setValues({ password: '', confirm: '' });
          toast('green', MESSAGES.adminStaffPasswordReset);
        },
      },
    );
  };

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        パスワード
      </Title>
      <Text size="sm">
        新しいパスワードを設定すると、この管理者はすべての端末でログアウトされ、新しいパスワードでログインし直す必要があります。
      </Text>
      <form onSubmit={submit} noValidate aria-label="パスワードを再設定">
        <Stack gap="sm" maw={420}>
          <PasswordInput
            label="新しいパスワード"
            description={`${PASSWORD_MIN_LENGTH}文字以上`}
            required
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            error={errorOf('password')}
          />
          <PasswordInput
            label="確認用パスワード"
            description="同じパスワードをもう一度入力してください"
            required
            autoComplete="new-password"
            value={values.confirm}
            onChange={set('confirm')}
            error={errorOf('confirm')}
          />
          {patch.isError && (
            <Alert color="red" role="alert">
              {errorDetail(patch.error, MESSAGES.adminStaffPasswordResetFailed)}
            </Alert>
          )}
          <Group>
            <Button type="submit" disabled={patch.isPending} loading={patch.isPending}>
              パスワードを再設定
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={confirming && online}
        message={
          isSelf
            ? MESSAGES.adminStaffPasswordResetSelfConfirm
            : MESSAGES.adminStaffPasswordResetConfirm(displayName(user))
        }
        confirmLabel="再設定する"
        cancelLabel="戻る"
        color="red"
        onConfirm={onConfirm}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}
