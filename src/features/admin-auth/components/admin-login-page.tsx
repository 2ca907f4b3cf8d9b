import {
  Alert,
  Box,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { RetryAlert } from '#src/components/retry-alert';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { usePublicConfig } from '#src/lib/public-config';
import { LINE_LOGIN_STATES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import { MissingTokensError } from '../api/admin-auth-api';
import { usePasswordLogin } from '../api/admin-auth-queries';
import { startAdminLineLogin } from '../line-authorize';

/** LINE's green, darkened so that white text on it reaches WCAG AA. */
const LINE_GREEN = '#037f35';

function loginErrorMessage(error: unknown): string {
  if (error instanceof MissingTokensError) return MESSAGES.tokensMissing;
  if (isApiError(error)) {
    // docs/screens.md#admin-login: a refused login is always the same sentence (it never tells which of the two was wrong).
    if (error.status === 401 || error.status === 400) return MESSAGES.passwordLoginFailed;
    return errorDetail(error, MESSAGES.serverError);
  }
  return MESSAGES.passwordLoginFailed;
}

/** docs/screens.md#admin-login (/admin when signed out): login ID and password, or LINE login with state admin_login. */
export function AdminLoginPage() {
  const login = usePasswordLogin();
  const config = usePublicConfig();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [leaving, setLeaving] = useState(false);

  const usernameError = touched && !username.trim() ? MESSAGES.fieldRequired : undefined;
  const passwordError = touched && !password ? MESSAGES.fieldRequired : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!username.trim() || !password || login.isPending) return;
    login.mutate({ username: username.trim(), password });
  };

  return (
    <Box component="main" mih="100dvh" bg="gray.0" px="md" py="xl">
      <title>スタッフログイン | ネイルサロン予約</title>
      <Center>
        <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
          <Stack gap="lg">
            <Stack gap={4}>
              <Title order={1} size="h2">
                スタッフログイン
              </Title>
              <Text size="sm" c="dimmed">
                {config.data?.salon_name ?? 'ネイルサロン'} の管理画面
              </Text>
            </Stack>

            {login.isError && (
              <Alert color="red" role="alert" title={loginErrorMessage(login.error)}>
                {isApiError(login.error, 401) ? 'ログインIDとパスワードをご確認ください。' : null}
              </Alert>
            )}

            <form onSubmit={submit} noValidate>
              <Stack gap="md">
                <TextInput
                  label="ログインID"
                  name="username"
                  autoComplete="username"
                  autoCapitalize="none"
                  required
                  value={username}
                  error={usernameError}
                  onChange={(event) => setUsername(event.currentTarget.value)}
                />
                <PasswordInput
                  label="パスワード"
                  name="password"
                  autoComplete="current-password"
                  required
                  visibilityToggleButtonProps={{ 'aria-label': 'パスワードを表示' }}
                  value={password}
                  error={passwordError}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                />
                <Button type="submit" size="md" loading={login.isPending}>
                  ログイン
                </Button>
              </Stack>
            </form>

            <Divider label="または" labelPosition="center" />

            {config.isError ? (
              <RetryAlert title={MESSAGES.initialLoadFailed} onRetry={() => void config.refetch()} />
            ) : (
              <Button
                size="md"
                color={LINE_GREEN}
                loading={config.isPending || leaving}
                onClick={() => {
                  if (!config.data) return;
                  setLeaving(true);
                  void startAdminLineLogin(config.data, LINE_LOGIN_STATES.adminLogin).catch((error: unknown) => {
                    console.error('LINEログインを開始できませんでした。', error);
                    setLeaving(false);
                  });
                }}
              >
                LINEでログイン
              </Button>
            )}
            <Text size="xs" c="dimmed">
              LINEでログインするには、事前に管理者から届いた連携用URLでアカウントを連携してください。
            </Text>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
