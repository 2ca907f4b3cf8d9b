import { Alert, Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { usePublicConfig } from '#src/lib/public-config';
import { LINE_LOGIN_STATES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import { startAdminLineLogin, storeRegistrationToken } from '../line-authorize';

/** At most what the server issues: 128 random bits in base64url (22 characters), with room to spare. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * docs/screens.md#register-line /register-line/{token}: keeps the one-time registration token in the browser session and sends the
 * staff member to LINE with state admin_link; the return (/admin/callback) links the account.
 */
export function RegisterLinePage() {
  const { token } = useParams();
  const config = usePublicConfig();
  const [failed, setFailed] = useState(false);
  const valid = Boolean(token && TOKEN_PATTERN.test(token));

  useEffect(() => {
    if (!valid || !token || !config.data) return;
    storeRegistrationToken(token);
    startAdminLineLogin(config.data, LINE_LOGIN_STATES.adminLink).catch((error: unknown) => {
      console.error('LINE認証を開始できませんでした。', error);
      setFailed(true);
    });
  }, [valid, token, config.data]);

  return (
    <Box component="main" mih="100dvh" bg="gray.0" px="md" py="xl">
      <title>LINE連携 | スタッフ管理画面</title>
      <Center>
        <Paper withBorder radius="md" p="xl" w="100%" maw={480}>
          <Stack gap="md">
            <Title order={1} size="h3">
              LINEアカウントの連携
            </Title>
            {!valid ? (
              <Alert color="red" role="alert" title={MESSAGES.adminRegisterLinkInvalid} />
            ) : config.isError || failed ? (
              <RetryAlert title={MESSAGES.initialLoadFailed} onRetry={() => window.location.reload()} />
            ) : (
              <>
                <LoadingState label="LINEの認証ページへ移動しています…" />
                <Text size="sm" c="dimmed">
                  LINEでログインすると、このアカウントがスタッフ管理画面に連携されます。
                </Text>
              </>
            )}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
