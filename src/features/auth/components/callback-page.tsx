import { Alert, Stack, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { HomeLink } from '#src/components/home-link';
import { LoadingState } from '#src/components/loading-state';
import { PageContainer } from '#src/components/page-container';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { customerRedirectUri, LINK_CUSTOMER_STATE, takePendingLineLogin } from '#src/lib/line-login';
import { clearTokens, customerSession } from '#src/lib/token-session';
import { LINE_LOGIN_STATES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import { exchangeLineCode, linkCustomerAccount, withLoginRetries } from '../api/line-callback';
import { paths } from '#src/lib/paths';

/** docs/screens.md#login-callback: check_reservation goes to /check, confirm_reservation to its page, anything else to /reserve. */
export function targetAfterLogin(state: string | null, returnTo: string | null): string {
  if (state === LINE_LOGIN_STATES.checkReservation) return '/check';
  if (state === LINE_LOGIN_STATES.confirmReservation) return '/confirm-reservation';
  return returnTo ?? paths.reserve;
}

/** The messages of a refused link (/link-customer/{token}): the server's detail first. */
function linkErrorMessage(error: unknown): string | null {
  if (isApiError(error, 400) || isApiError(error, 404)) return errorDetail(error, MESSAGES.customerLinkInvalid);
  if (isApiError(error, 409)) return errorDetail(error, MESSAGES.lineLinkedToOtherCustomer);
  return null;
}

/** /callback: the return of the customer LINE login (docs/screens.md#login-callback). */
export function CallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signIn } = useCustomerAuth();
  const [linkError, setLinkError] = useState<string | null>(null);
  // The code can be exchanged once; StrictMode's second effect run must not try again.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const state = params.get('state');
    const pending = takePendingLineLogin();

    const fail = (reason: string, error?: unknown) => {
      console.warn(`LINEログインに失敗しました: ${reason}`, error ?? '');
      clearTokens(customerSession);
      void navigate('/login-failed', { replace: true });
    };

    if (!code) return fail('認可コードがありません');
    if (!pending.expectedState || state !== pending.expectedState) return fail('state が一致しません');

    const request = {
      code,
      code_verifier: pending.codeVerifier,
      nonce: pending.nonce,
      redirect_uri: customerRedirectUri(),
    };

    if (state === LINK_CUSTOMER_STATE) {
      if (!pending.linkToken) return fail('連携用のトークンがありません');
      const token = pending.linkToken;
      void withLoginRetries(() => linkCustomerAccount({ ...request, token }))
        .then((tokens) => signIn(tokens))
        .then(() => navigate(paths.reserve, { replace: true, state: { notice: MESSAGES.linkDone } }))
        .catch((error: unknown) => {
          const message = linkErrorMessage(error);
          if (message) setLinkError(message);
          else fail('アカウント連携', error);
        });
      return;
    }

    void withLoginRetries(() => exchangeLineCode(request))
      .then((tokens) => signIn(tokens))
      .then(() => navigate(targetAfterLogin(state, pending.returnTo), { replace: true }))
      .catch((error: unknown) => fail('トークンの取得', error));
  }, [params, navigate, signIn]);

  if (linkError) {
    return (
      <PageContainer>
        <title>アカウント連携 | ネイルサロン予約</title>
        <Stack gap="md">
          <Title order={1} size="h2">
            {MESSAGES.linkFailed}
          </Title>
          <Alert color="red" role="alert">
            {linkError}
          </Alert>
          <HomeLink />
        </Stack>
      </PageContainer>
    );
  }

  return (
    <PageContainer>
      <title>ログイン中 | ネイルサロン予約</title>
      <Stack gap="md" align="center" mt="xl">
        <Title order={1} size="h3">
          ログインしています
        </Title>
        <LoadingState label="LINEの認証結果を確認しています…" />
      </Stack>
    </PageContainer>
  );
}
