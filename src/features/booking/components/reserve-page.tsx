import { Alert, Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { HomeLink } from '#src/components/home-link';
import { LineLoginButton } from '#src/components/line-login-button';
import { LoadingState } from '#src/components/loading-state';
import { PageContainer } from '#src/components/page-container';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { paths } from '#src/lib/paths';
import { MESSAGES } from '#src/shared/messages';
import { BookingWizard } from './booking-wizard';

// キャンセル待ち offers' links only (waitlist-wizard.tsx).
const WaitlistWizard = lazy(() => import('./waitlist-wizard').then((m) => ({ default: m.WaitlistWizard })));

const PAGE_TITLE = 'ご予約 | ネイルサロン予約';

/** /reserve (docs/screens.md#booking-wizard): the six-step wizard for a signed-in customer. */
export function ReservePage() {
  const { signedIn } = useCustomerAuth();
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  // 前回と同じで予約 (a link in the detail page or in a LINE message): kept through the LINE login.
  const [search] = useSearchParams();
  const rebook = search.get('rebook');
  // キャンセル待ち: the offer's link (server/outbox/waitlist-offers.ts), also kept through the LINE login.
  const waitlist = /^\d{1,9}$/.test(search.get('waitlist') ?? '') ? Number(search.get('waitlist')) : null;

  if (!signedIn) {
    return (
      <PageContainer>
        <title>{PAGE_TITLE}</title>
        <Stack gap="lg" align="center" ta="center" mt="xl">
          <Title order={1}>ご予約</Title>
          <Text>{MESSAGES.loginRequired}</Text>
          <LineLoginButton
            w={{ base: '100%', xs: 320 }}
            options={rebook || waitlist !== null ? { returnTo: `${location.pathname}${location.search}` } : undefined}
          />
          <HomeLink />
        </Stack>
      </PageContainer>
    );
  }

  return (
    <PageContainer>
      <title>{PAGE_TITLE}</title>
      <Stack gap="md">
        <Group justify="space-between" align="center" wrap="nowrap">
          <Title order={1}>ご予約</Title>
          <Anchor component={Link} to={paths.reservations} size="sm">
            予約一覧
          </Anchor>
        </Group>
        {notice && (
          <Alert color="green" role="status">
            {notice}
          </Alert>
        )}
        {waitlist !== null ? (
          <Suspense fallback={<LoadingState />}>
            <WaitlistWizard entryId={waitlist} />
          </Suspense>
        ) : (
          <BookingWizard rebook={rebook} />
        )}
      </Stack>
    </PageContainer>
  );
}
