import { Stack, Text, Title } from '@mantine/core';
import { HomeLink } from '../../components/home-link';
import { PageContainer } from '../../components/page-container';
import { MESSAGES } from '../../shared/messages';

/** docs/screens.md#error-pages route `*`. */
export function NotFoundPage() {
  return (
    <PageContainer>
      <title>{MESSAGES.pageNotFound}</title>
      <Stack gap="md" align="center" ta="center">
        <Title order={1} size="h2">
          {MESSAGES.pageNotFound}
        </Title>
        <Text c="dimmed">お探しのページは移動または削除された可能性があります。</Text>
        <HomeLink />
      </Stack>
    </PageContainer>
  );
}
