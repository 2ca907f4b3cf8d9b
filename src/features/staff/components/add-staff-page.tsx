import { Alert, Anchor, Button, Group, Paper, PasswordInput, Select, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { toast } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { StaffRole } from '#src/shared/roles';
import { useCreateStaff } from '../api/staff-queries';
import { ROLE_OPTIONS, STAFF_LIST_PATH } from './staff-labels';

type FieldName = 'username' | 'full_name' | 'email' | 'password';
type Values = Record<FieldName, string> & { role: StaffRole };

const EMPTY: Values = { username: '', full_name: '', email: '', password: '', role: 'nailist' };
const REQUIRED: FieldName[] = ['username', 'full_name', 'email', 'password'];

/** docs/screens.md#add-staff: the server's detail field, else the fixed sentence. Bare proxy errors have no detail. */
function failureText(error: unknown): string {
  return errorDetail(error, MESSAGES.adminStaffCreateFailed);
}

function fieldErrorsOf(error: unknown): Partial<Record<FieldName, string>> {
  if (!isApiError(error) || !error.fields) return {};
  const result: Partial<Record<FieldName, string>> = {};
  for (const name of REQUIRED) {
    const messages = error.fields[name];
    if (messages?.length) result[name] = messages.join(' ');
  }
  return result;
}

/** 社員の新規追加 (docs/screens.md#add-staff). */
export function AddStaffPage() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [missing, setMissing] = useState<Partial<Record<FieldName, string>>>({});
  const create = useCreateStaff();
  const navigate = useNavigate();
  const serverFields = create.isError ? fieldErrorsOf(create.error) : {};
  const errorOf = (name: FieldName) => missing[name] ?? serverFields[name];

  const set = (name: FieldName) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [name]: value }));
    setMissing((current) => ({ ...current, [name]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const empty = Object.fromEntries(
      REQUIRED.filter((name) => !values[name].trim()).map((name) => [name, MESSAGES.fieldRequired]),
    );
    setMissing(empty);
    if (Object.keys(empty).length > 0) return;
    create.mutate(
      {
        ...values,
        username: values.username.trim(),
        full_name: values.full_name.trim(),
        email: values.email.trim(),
        is_superuser: values.role === 'owner',
      },
      {
        onSuccess: () => {
          toast('green', MESSAGES.adminStaffCreated);
          void navigate(STAFF_LIST_PATH);
        },
      },
    );
  };

  return (
    <Stack>
      <title>社員の新規追加</title>
      <Anchor component={Link} to={STAFF_LIST_PATH} size="sm">
        ← 社員管理に戻る
      </Anchor>
      <Title order={1}>社員の新規追加</Title>
      <Paper withBorder p="md" maw={560}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label="ログインID"
              required
              autoComplete="off"
              value={values.username}
              onChange={set('username')}
              error={errorOf('username')}
            />
            <TextInput
              label="氏名"
              required
              value={values.full_name}
              onChange={set('full_name')}
              error={errorOf('full_name')}
            />
            <TextInput
              label="メールアドレス"
              type="email"
              required
              value={values.email}
              onChange={set('email')}
              error={errorOf('email')}
            />
            <PasswordInput
              label="パスワード"
              required
              autoComplete="new-password"
              value={values.password}
              onChange={set('password')}
              error={errorOf('password')}
            />
            <Select
              label="権限"
              required
              allowDeselect={false}
              data={ROLE_OPTIONS}
              value={values.role}
              onChange={(role) => role && setValues((current) => ({ ...current, role: role as StaffRole }))}
              comboboxProps={{ withinPortal: true }}
            />
            {create.isError && (
              <Alert color="red" role="alert">
                {failureText(create.error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? '登録中...' : '登録する'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
