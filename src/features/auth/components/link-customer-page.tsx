import { Alert, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { HomeLink } from '#src/components/home-link';
import { LineLoginButton } from '#src/components/line-login-button';
import { LoadingState } from '#src/components/loading-state';
import { PageContainer } from '#src/components/page-container';
import { RetryAlert } from '#src/components/retry-alert';
import { api, errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { LINK_CUSTOMER_STATE } from '#src/lib/line-login';
import { formatDateTimeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';

interface LinkTokenStatus {
  valid: boolean;
  expires_at?: string;
}

/**
 * /link-customer/{token} (docs/architecture.md): a staff-created customer record is linked to the LINE account the
 * customer logs in with. The token is checked first; the link itself happens on the LINE return (/callback).
 */
export function LinkCustomerPage() {
  const token = useParams().token ?? '';
  const status = useQuery({
    queryKey: ['link-customer', token],
    queryFn: ({ signal }) => api.get<LinkTokenStatus>(`/api/link-customer/${encodeURIComponent(token)}/`, { signal }),
    enabled: token !== '',
    retry: false,
    staleTime: 0,
  });

  let content;
  if (!token) {
    content = (
      <Alert color="red" role="alert">
        {MESSAGES.customerLinkInvalid}
      </Alert>
    );
  } else if (status.isPending) {
    content = <LoadingState label="リンクを確認しています…" />;
  } else if (status.isError) {
    const error = status.error;
    content = isApiError(error, 404) ? (
      <Alert color="red" role="alert">
        {errorDetail(error, MESSAGES.customerLinkInvalid)}
        <Text size="sm" mt="xs">
          お手数ですが、サロンに新しいリンクをお問い合わせください。
        </Text>
      </Alert>
    ) : (
      <RetryAlert title={MESSAGES.initialLoadFailed} onRetry={() => void status.refetch()} />
    );
  } else if (!status.data.valid) {
    content = (
      <Alert color="red" role="alert">
        {MESSAGES.customerLinkInvalid}
      </Alert>
    );
  } else {
    content = (
      <>
        <Text>
          サロンでお預かりしているお客様情報と、お使いのLINEアカウントを連携します。連携すると、ご予約のお知らせをLINEで受け取れるようになります。
        </Text>
        {status.data.expires_at && (
          <Text size="sm" c="dimmed">
            このリンクの有効期限: {formatDateTimeJa(status.data.expires_at)}
          </Text>
        )}
        <LineLoginButton
          label="LINEでログインして連携する"
          options={{ state: LINK_CUSTOMER_STATE, linkToken: token }}
          w={{ base: '100%', xs: 320 }}
        />
      </>
    );
  }

  return (
    <PageContainer>
      <title>LINE連携 | ネイルサロン予約</title>
      <Stack gap="md">
        <Title order={1} size="h2">
          LINEアカウントの連携
        </Title>
        {content}
        <HomeLink />
      </Stack>
    </PageContainer>
  );
}
