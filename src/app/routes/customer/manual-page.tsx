import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageContainer } from '#src/components/page-container';

/** /manual (docs/screens.md#manual): how customers and staff use the app; links /check-reservation and /admin. */
export function ManualPage() {
  return (
    <PageContainer>
      <title>ご利用方法 | ネイルサロン予約</title>
      <Stack gap="lg">
        <Title order={1} size="h2">
          ご利用方法
        </Title>

        <Stack gap="xs" component="section" aria-labelledby="manual-customers">
          <Title order={2} size="h3" id="manual-customers">
            お客様へ
          </Title>
          <List type="ordered" spacing="xs">
            <List.Item>「LINEでログインして予約する」ボタンから、LINEアカウントでログインします。</List.Item>
            <List.Item>メニューを選び、カレンダーで枠のついた予約可能日を選びます。</List.Item>
            <List.Item>ご希望の開始時刻を選び、お名前・フリガナ・メールアドレス・電話番号を入力します。</List.Item>
            <List.Item>
              内容を確認して「この内容で予約する」を押すと、予約番号が表示され、確認メールが届きます。
            </List.Item>
          </List>
          <Text>
            予約番号は、予約の確認・変更・キャンセルに必要です。予約詳細ページからのキャンセルは、サロンが定めるキャンセル期限まで行えます。期限を過ぎた後は、サロンへ直接ご連絡ください。
          </Text>
          <Text>
            最新のご予約内容は、
            <Anchor component={Link} to="/check-reservation">
              予約確認ページ
            </Anchor>
            からLINEのトークに送ることができます。
          </Text>
          <Anchor component={Link} to="/reserve">
            予約をはじめる
          </Anchor>
        </Stack>

        <Stack gap="xs" component="section" aria-labelledby="manual-staff">
          <Title order={2} size="h3" id="manual-staff">
            スタッフの方へ
          </Title>
          <Text>
            <Anchor component={Link} to="/admin">
              管理画面
            </Anchor>
            にログインIDとパスワード、または連携済みのLINEアカウントでログインします。
          </Text>
          <List spacing="xs">
            <List.Item>予約一覧で予約の確認・確定・キャンセルを行い、新規顧客の予約を作成できます。</List.Item>
            <List.Item>スケジュール設定で、日ごとの受付時間枠を設定します。</List.Item>
            <List.Item>
              メニュー管理・顧客管理・メッセージ履歴から、メニューやお客様情報、LINEのやり取りを管理します。
            </List.Item>
            <List.Item>社員管理・統計・設定はオーナーのみ、すべての予約と顧客は受付も利用できます。</List.Item>
          </List>
          <Text>
            お客様の予約詳細ページをスタッフとしてログインしたブラウザで開くと、予約の確定もできます。キャンセル期限は管理画面の設定で変更でき、お客様にはこのページと予約画面の文章でお知らせします。
          </Text>
        </Stack>
      </Stack>
    </PageContainer>
  );
}
