import { Stack, Text, Title } from '@mantine/core';
import { PageContainer } from '../../../components/page-container';

/**
 * The admin area's entry, loaded lazily so that staff code never ships in the customer chunks. The admin shell
 * (login, sidebar, nested routes) replaces this placeholder.
 */
export function AdminEntry() {
  return (
    <PageContainer>
      <title>スタッフ管理画面</title>
      <Stack gap="sm">
        <Title order={1}>スタッフ管理画面</Title>
        <Text c="dimmed">管理画面は現在準備中です。</Text>
      </Stack>
    </PageContainer>
  );
}
