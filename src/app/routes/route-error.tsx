import { Button, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { HomeLink } from '../../components/home-link';
import { PageContainer } from '../../components/page-container';
import { NotFoundPage } from './not-found';

/**
 * The error boundary of the route tree. The usual cause is a lazy chunk that no longer exists after a deploy,
 * which a reload fixes; anything else still gets a Japanese page instead of React Router's English default.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <PageContainer>
      <Stack gap="md" align="center" ta="center">
        <Title order={1} size="h2">
          エラーが発生しました
        </Title>
        <Text c="dimmed">ページを表示できませんでした。再読み込みしてもう一度お試しください。</Text>
        <Button onClick={() => window.location.reload()}>再読み込み</Button>
        <HomeLink />
      </Stack>
    </PageContainer>
  );
}
