import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LoadingState } from '../../components/loading-state';
import { PageContainer } from '../../components/page-container';
import { RetryAlert } from '../../components/retry-alert';
import { paths } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config';
import { MESSAGES } from '../../shared/messages';

const APP_TITLE = 'ネイルサロン予約';

/** docs/screens.md#home route `/`: the salon's name and the way into booking. */
export function HomePage() {
  const config = usePublicConfig();
  const salonName = config.data?.salon_name || APP_TITLE;

  return (
    <PageContainer>
      <title>{config.data ? `${salonName} | ${APP_TITLE}` : APP_TITLE}</title>
      <Stack gap="lg" align="center" ta="center" mt="xl">
        {config.isPending ? (
          <LoadingState />
        ) : config.isError ? (
          <RetryAlert title={MESSAGES.initialLoadFailed} w="100%" ta="left" onRetry={() => void config.refetch()} />
        ) : (
          <Title order={1}>{salonName}</Title>
        )}
        <Text c="dimmed">ご希望のメニューと日時を選んで、LINEでかんたんにご予約いただけます。</Text>
        <Button component={Link} to="/reserve" size="lg" radius="xl" w={{ base: '100%', xs: 320 }}>
          予約する
        </Button>
        <Anchor component={Link} to={paths.reservations}>
          予約一覧（ご予約の確認）
        </Anchor>
        <Anchor component={Link} to="/manual">
          ご利用方法
        </Anchor>
      </Stack>
    </PageContainer>
  );
}
