import { CheckoutButton } from '#src/components/checkout-button';
import {
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { CustomerIncidents } from '#src/components/incident-badge';
import { LINE_GREEN } from '#src/components/line-login-button';
import { OfflineReason } from '#src/components/online-only';
import { useAdminViewer } from '#src/components/staff-choice';
import { StaffBookingDialogSlot } from '#src/lib/staff-booking-dialog-slot';
import { copyText } from '#src/lib/clipboard';
import { toast } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { MESSAGES } from '#src/shared/messages';
import type { AdminCustomer, CustomerLineLink } from '#src/shared/schemas/customers';
import { useCustomer, useGenerateCustomerLineLink, useSetRebookPrompts } from '../api/customers-queries';
import { errorDetail } from '#src/lib/api-client';
import { useCustomerId } from '../hooks/use-customer-id';
import { CustomerLineUnlinkButton } from './customer-line-unlink';
import { BackToList, CustomerLoadState, CustomerNotFound } from './customer-state';
import { CustomerReservationHistory } from './customer-reservation-history';
import { CustomerVisits } from '#src/components/karte/customer-visits';
import { paths } from '#src/lib/paths';

const NOT_SET = '未登録';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text>{value || NOT_SET}</Text>
    </div>
  );
}

function LinkResult({ link, copied }: { link: CustomerLineLink; copied: boolean }) {
  return (
    <Alert color="green" role="status">
      <Stack gap="xs">
        <Text size="sm">
          {copied
            ? 'LINE連携URLを生成し、クリップボードにコピーしました。お客様にお送りください。'
            : 'LINE連携URLを生成しました。コピーしてお客様にお送りください。'}
        </Text>
        <TextInput label="LINE連携URL" value={link.link_url} readOnly onFocus={(e) => e.currentTarget.select()} />
        <Textarea label="お客様へのご案内文" value={link.message} readOnly rows={5} />
      </Stack>
    </Alert>
  );
}

/** 再来店のご案内 (a LINE message a service's cycle after a visit): staff switch it off when the customer asks. */
function RebookPromptsSwitch({ customer }: { customer: AdminCustomer }) {
  const setEnabled = useSetRebookPrompts(customer.id);
  const online = useOnline();
  return (
    <Switch
      label="再来店のご案内をLINEで送る"
      description={customer.is_line_linked ? undefined : 'LINE連携後に送られます'}
      checked={setEnabled.isPending ? setEnabled.variables : customer.rebook_prompts_enabled !== false}
      disabled={!online || setEnabled.isPending}
      onChange={(event) =>
        setEnabled.mutate(event.currentTarget.checked, {
          onError: (error) => toast('red', errorDetail(error, MESSAGES.serverError)),
        })
      }
    />
  );
}

function CustomerActions({ customer, onCreate }: { customer: AdminCustomer; onCreate: () => void }) {
  const generate = useGenerateCustomerLineLink(customer.id);
  // A customer's LINE link is the superuser's to make and to remove (the server refuses anyone else).
  const isSuperuser = useAdminViewer().data?.is_superuser === true;
  // Bookings, messages and link URLs need the server: not offered offline (docs/architecture.md#offline-design).
  const online = useOnline();
  const [result, setResult] = useState<{ link: CustomerLineLink; copied: boolean } | null>(null);
  const base = paths.adminCustomer(customer.id);

  const onGenerate = () =>
    generate.mutate(undefined, {
      onSuccess: async (link) => setResult({ link, copied: await copyText(link.link_url) }),
      onError: (error) => {
        const detail = errorDetail(error, '');
        toast('red', detail ? MESSAGES.adminCustomerLinkUrlError(detail) : MESSAGES.adminCustomerLinkUrlFailed);
      },
    });

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Button component={Link} to={`${base}/memo`} variant="default">
          顧客メモを編集
        </Button>
        {isSuperuser && !customer.is_line_linked && (
          <Button variant="default" onClick={onGenerate} loading={generate.isPending} disabled={!online}>
            LINE連携URL生成
          </Button>
        )}
        {customer.is_line_linked &&
          (online ? (
            <Button component={Link} to={`${base}/send-message`} color={LINE_GREEN}>
              LINEでメッセージを送信
            </Button>
          ) : (
            <Button disabled>LINEでメッセージを送信</Button>
          ))}
        <Button component={Link} to={paths.adminLineHistory(customer.name)} variant="default">
          チャット履歴
        </Button>
        <CheckoutButton customerId={customer.id} />
        <Button onClick={onCreate} disabled={!online}>
          予約作成
        </Button>
        {isSuperuser && customer.is_line_linked && <CustomerLineUnlinkButton customerId={customer.id} />}
      </Group>
      <OfflineReason what="予約作成・メッセージ送信・LINE連携の変更" />
      {result && <LinkResult link={result.link} copied={result.copied} />}
    </Stack>
  );
}

function CustomerDetail({ customer }: { customer: AdminCustomer }) {
  const [creating, { open, close }] = useDisclosure(false);
  return (
    <Stack>
      <title>{`${customer.name} | 顧客詳細`}</title>
      <BackToList />
      <Stack gap={0}>
        {customer.furigana && (
          <Text size="sm" c="dimmed">
            {customer.furigana}
          </Text>
        )}
        <Title order={1}>{customer.name}</Title>
        <CustomerIncidents customer={customer} />
      </Stack>
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Field label="フリガナ" value={customer.furigana} />
          <Field label="名前" value={customer.name} />
          <Field label="メールアドレス" value={customer.email} />
          <Field label="電話番号" value={customer.phone_number} />
          <Field
            label="LINE連携"
            value={customer.is_line_linked ? `連携済み（${customer.line_display_name || 'LINE名未登録'}）` : '未連携'}
          />
        </SimpleGrid>
        <Stack mt="sm">
          <RebookPromptsSwitch customer={customer} />
        </Stack>
      </Paper>
      <CustomerActions customer={customer} onCreate={open} />
      <CustomerReservationHistory customerId={customer.id} />
      <CustomerVisits customerId={customer.id} />
      <StaffBookingDialogSlot opened={creating} customerId={customer.id} onClose={close} />
    </Stack>
  );
}

function CustomerDetailLoader({ id }: { id: number }) {
  const customer = useCustomer(id);
  if (!customer.data) return <CustomerLoadState error={customer.error} />;
  return <CustomerDetail customer={customer.data} />;
}

/** Customer detail (docs/screens.md#customer-detail). */
export function CustomerDetailPage() {
  const id = useCustomerId();
  if (id === null) return <CustomerNotFound />;
  return <CustomerDetailLoader key={id} id={id} />;
}
