import { Alert, Button, Code, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { HomeLink } from '../../../components/home-link';
import { PageContainer } from '../../../components/page-container';
import { MESSAGES } from '../../../shared/messages';
import { paths } from '../../../lib/paths';

/** /reservation-complete/{reservationNumber} (docs/architecture.md#screens-and-texts). */
export function ReservationCompletePage() {
  const number = useParams().reservationNumber;

  return (
    <PageContainer>
      <title>ご予約を受け付けました | ネイルサロン予約</title>
      <Stack gap="md">
        <Title order={1} size="h2">
          ご予約を受け付けました
        </Title>
        {number ? (
          <>
            <Paper withBorder p="md">
              <Text size="sm" fw={700}>
                予約番号
              </Text>
              <Code block fz="md" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
                {number}
              </Code>
              <Text size="sm" mt="xs">
                予約の確認・変更・キャンセルの際に必要になります。大切に保管してください。
              </Text>
            </Paper>
            <Text>ご入力いただいたメールアドレスに確認メールをお送りしました。サロンでご予約を確認しましたら、改めてご連絡いたします。</Text>
            <Button component={Link} to={paths.reservation(number)} variant="light" fullWidth>
              予約内容を確認する
            </Button>
          </>
        ) : (
          <Alert color="red" role="alert">
            {MESSAGES.reservationNumberMissing}
          </Alert>
        )}
        <Button component={Link} to="/reserve" fullWidth>
          続けて予約する
        </Button>
        <HomeLink ta="center" />
      </Stack>
    </PageContainer>
  );
}
