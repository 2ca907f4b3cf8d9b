import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatTime, formatYen } from '#src/shared/format';
import { PAYMENT_METHOD_LABELS, type Checkout } from '#src/shared/schemas/register';
import { CorrectionDialog, type CorrectionKind } from './correction-dialog';
import { printReceipt } from './receipt-print';

const STATUS: Record<Checkout['status'], { label: string; color: string }> = {
  completed: { label: '完了', color: 'teal' },
  voided: { label: '取消', color: 'gray' },
  partially_refunded: { label: '一部返金', color: 'orange' },
  refunded: { label: '返金済み', color: 'red' },
};

/** The day's checkouts, with 領収書, 取消 and 返金 (corrections are the superuser's; this page is theirs). */
export function DayCheckouts({ checkouts, closed }: { checkouts: Checkout[]; closed: boolean }) {
  const [correcting, setCorrecting] = useState<{ checkout: Checkout; kind: CorrectionKind } | null>(null);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          この日の会計（{checkouts.length}件）
        </Title>
        {checkouts.length === 0 ? (
          <Text c="dimmed">この日の会計はありません。</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label="この日の会計" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>時刻</Table.Th>
                  <Table.Th>領収書番号</Table.Th>
                  <Table.Th>お客様・担当</Table.Th>
                  <Table.Th ta="right">合計</Table.Th>
                  <Table.Th>お支払い</Table.Th>
                  <Table.Th>状態</Table.Th>
                  <Table.Th>操作</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {checkouts.map((checkout) => (
                  <Table.Tr key={checkout.id}>
                    <Table.Td>{formatTime(checkout.checked_out_at)}</Table.Td>
                    <Table.Td>{checkout.receipt_number}</Table.Td>
                    <Table.Td>
                      {checkout.customer_name || '—'}
                      <Text size="xs" c="dimmed">
                        {checkout.staff_name}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{formatYen(checkout.total)}</Table.Td>
                    <Table.Td>
                      {checkout.payments.map((payment) => PAYMENT_METHOD_LABELS[payment.method]).join('・')}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS[checkout.status].color} variant="light">
                        {STATUS[checkout.status].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`${checkout.receipt_number}の領収書`}
                          onClick={() =>
                            void printReceipt(checkout.id, { proviso: '', withName: false }).catch(() => {})
                          }
                        >
                          領収書
                        </Button>
                        {checkout.status === 'completed' && !closed && (
                          <Button
                            size="xs"
                            variant="light"
                            color="red"
                            aria-label={`${checkout.receipt_number}を取消`}
                            onClick={() => setCorrecting({ checkout, kind: 'void' })}
                          >
                            取消
                          </Button>
                        )}
                        {(checkout.status === 'completed' || checkout.status === 'partially_refunded') && (
                          <Button
                            size="xs"
                            variant="light"
                            color="orange"
                            aria-label={`${checkout.receipt_number}を返金`}
                            onClick={() => setCorrecting({ checkout, kind: 'refund' })}
                          >
                            返金
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <CorrectionDialog
        checkout={correcting?.checkout ?? null}
        kind={correcting?.kind ?? 'void'}
        onClose={() => setCorrecting(null)}
      />
    </Paper>
  );
}
