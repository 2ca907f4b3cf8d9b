import { Alert, Anchor, Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { LINE_LOGIN_STATES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { TokenPair } from '#src/shared/schemas/auth';
import { linkLineAccount, loginWithLine, MissingTokensError } from '../api/admin-auth-api';
import { adminAuthKeys } from '#src/lib/query-keys';
import {
  adminRedirectUri,
  forgetRegistrationToken,
  readRegistrationToken,
  takeAdminLineSecrets,
} from '../line-authorize';
import { signInAdmin } from '../session';
import { paths } from '#src/lib/paths';

/** docs/screens.md#admin-callback: back to /admin 3 seconds after a failed LINE login. */
const LINE_LOGIN_FAILURE_REDIRECT_MS = 3000;

type Outcome = { kind: 'working' } | { kind: 'error'; title: string; message: string; redirect?: boolean };

/** A code is good once: React's development double effects and a re-render must not send it twice. */
const exchanges = new Map<string, Promise<TokenPair>>();
function exchangeOnce(code: string, run: () => Promise<TokenPair>): Promise<TokenPair> {
  let running = exchanges.get(code);
  if (!running) {
    running = run();
    exchanges.set(code, running);
  }
  return running;
}

function serverMessage(error: unknown): string | null {
  if (error instanceof MissingTokensError) return error.message;
  if (isApiError(error)) {
    const field = error.fields && Object.values(error.fields).flat()[0];
    return field ?? errorDetail(error, MESSAGES.serverError);
  }
  return null;
}

/** docs/screens.md#admin-callback: state admin_link links the account, admin_login logs in, anything else is refused. */
export function AdminCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const code = params.get('code');
  const state = params.get('state');

  const initial = ((): Outcome => {
    if (state !== LINE_LOGIN_STATES.adminLink && state !== LINE_LOGIN_STATES.adminLogin) {
      return { kind: 'error', title: MESSAGES.adminInvalidRequest, message: 'このページは直接開くことはできません。' };
    }
    if (!code) return { kind: 'error', title: MESSAGES.adminAuthFailed, message: 'LINEでの認証が完了しませんでした。' };
    if (state === LINE_LOGIN_STATES.adminLink && !readRegistrationToken()) {
      return {
        kind: 'error',
        title: MESSAGES.adminRegistrationSessionMissing,
        message: '連携用URLは管理者から受け取ったものをこのブラウザで開いてください。',
      };
    }
    return { kind: 'working' };
  })();
  const [outcome, setOutcome] = useState<Outcome>(initial);

  useEffect(() => {
    if (initial.kind !== 'working' || !code) return;
    let active = true;
    const linking = state === LINE_LOGIN_STATES.adminLink;
    const token = readRegistrationToken();
    const exchange = exchangeOnce(code, () => {
      const request = { code, redirect_uri: adminRedirectUri(), ...takeAdminLineSecrets() };
      return linking ? linkLineAccount({ ...request, token: token ?? '' }) : loginWithLine(request);
    });
    exchange.then(
      (tokens) => {
        if (linking) forgetRegistrationToken();
        signInAdmin(tokens);
        void queryClient.invalidateQueries({ queryKey: adminAuthKeys.all });
        if (active) void navigate(paths.admin, { replace: true });
      },
      (error: unknown) => {
        if (!active) return;
        if (linking) {
          setOutcome({
            kind: 'error',
            title: serverMessage(error) ?? MESSAGES.linkFailed,
            message: 'お手数ですが、管理者に新しい連携用URLを発行してもらってください。',
          });
        } else {
          setOutcome({
            kind: 'error',
            title: serverMessage(error) ?? MESSAGES.lineLoginFailed,
            message: '3秒後にログイン画面へ戻ります。',
            redirect: true,
          });
        }
      },
    );
    return () => {
      active = false;
    };
    // The page handles one return from LINE; the values never change while it is shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const redirect = outcome.kind === 'error' && outcome.redirect;
  useEffect(() => {
    if (!redirect) return;
    const timer = setTimeout(() => void navigate(paths.admin, { replace: true }), LINE_LOGIN_FAILURE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [redirect, navigate]);

  return (
    <Box component="main" mih="100dvh" bg="gray.0" px="md" py="xl">
      <title>LINE認証 | スタッフ管理画面</title>
      <Center>
        <Paper withBorder radius="md" p="xl" w="100%" maw={480}>
          <Stack gap="md">
            <Title order={1} size="h3">
              LINE認証
            </Title>
            {outcome.kind === 'working' ? (
              <LoadingState
                label={state === LINE_LOGIN_STATES.adminLink ? 'アカウントを連携しています…' : 'ログインしています…'}
              />
            ) : (
              <>
                <Alert color="red" role="alert" title={outcome.title}>
                  <Text size="sm">{outcome.message}</Text>
                </Alert>
                <Anchor component={Link} to="/admin">
                  ログイン画面へ戻る
                </Anchor>
              </>
            )}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
