import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { HomeLink } from '#src/components/home-link';
import { PageContainer } from '#src/components/page-container';

/** /cancellation-complete (docs/screens.md#cancellation-complete). */
export function CancellationCompletePage() {
  return (
    <PageContainer>
      <title>キャンセルが完了しました | ネイルサロン予約</title>
      <Stack gap="md" align="center" ta="center" mt="xl">
        <Title order={1} size="h2">
          キャンセルが完了しました
        </Title>
        <Text>
          ご予約のキャンセルを承りました。キャンセルのお知らせをお送りします。またのご利用をお待ちしております。
        </Text>
        <Button component={Link} to="/reserve" w={{ base: '100%', xs: 320 }}>
          新しく予約する
        </Button>
        <HomeLink />
      </Stack>
    </PageContainer>
  );
}
