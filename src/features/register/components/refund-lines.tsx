import { NumberInput, Stack, Table, Text } from '@mantine/core';
import { formatYen } from '#src/shared/format';
import { computeRefund, type RefundLineRequest } from '#src/shared/money/refund';
import type { Checkout } from '#src/shared/schemas/register';

/** How many of each line are still not refunded (the earlier refunds' lines taken off). */
function quantitiesLeft(checkout: Checkout): number[] {
  const left = checkout.lines.map((line) => line.quantity);
  for (const correction of checkout.corrections)
    for (const line of correction.lines) left[line.line_index] = (left[line.line_index] ?? 0) - line.quantity;
  return left;
}

/** The lines a refund names (those with a quantity), or undefined: everything not yet refunded. */
export function requestedLines(quantities: Record<number, number>): RefundLineRequest[] | undefined {
  const lines = Object.entries(quantities)
    .filter(([, quantity]) => quantity > 0)
    .map(([index, quantity]) => ({ line_index: Number(index), quantity }));
  return lines.length === 0 ? undefined : lines;
}

/**
 * 返金する明細: a quantity per line still refundable; none chosen gives back everything left. The amount is the
 * shared rule the server records it with (src/shared/money/refund.ts: the lines less their share of the discount).
 */
export function RefundLines({
  checkout,
  quantities,
  onChange,
}: {
  checkout: Checkout;
  quantities: Record<number, number>;
  onChange(quantities: Record<number, number>): void;
}) {
  const left = quantitiesLeft(checkout);
  // Answers type the rates as plain numbers; a receipt's are always 10 and 8.
  const original = checkout as unknown as Parameters<typeof computeRefund>[0];
  const earlier = checkout.corrections as unknown as Parameters<typeof computeRefund>[1];
  const refund = computeRefund(original, earlier, requestedLines(quantities), 'floor');
  return (
    <Stack gap="xs">
      <Table aria-label="返金する明細" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>明細</Table.Th>
            <Table.Th ta="right">残り</Table.Th>
            <Table.Th>返金数</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {checkout.lines.map((line, index) => (
            <Table.Tr key={index}>
              <Table.Td>
                {line.name} {formatYen(line.unit_price)}
              </Table.Td>
              <Table.Td ta="right">{left[index]}</Table.Td>
              <Table.Td>
                <NumberInput
                  aria-label={`${line.name}の返金数`}
                  size="xs"
                  w={80}
                  min={0}
                  max={left[index]}
                  allowDecimal={false}
                  allowNegative={false}
                  disabled={(left[index] ?? 0) === 0}
                  value={quantities[index] ?? 0}
                  onChange={(value) => onChange({ ...quantities, [index]: typeof value === 'number' ? value : 0 })}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" aria-label="返金額">
        {'refused' in refund
          ? '返金できる数量を超えています。'
          : `返金額 ${formatYen(refund.amount)}${requestedLines(quantities) ? '' : '（残りすべて）'}`}
      </Text>
    </Stack>
  );
}
