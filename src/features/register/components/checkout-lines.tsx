import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Paper,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState, type Dispatch } from 'react';
import { formatYen } from '#src/shared/format';
import { lineAmount } from '#src/shared/money/receipt';
import type { TaxRate } from '#src/shared/money/types';
import type { Product } from '#src/shared/schemas/register';
import type { CheckoutFormAction, FormLine } from '../hooks/use-checkout-form';

const TAX_RATE_OPTIONS = [
  { value: '10', label: '10%' },
  { value: '8', label: '8%（軽減）' },
];

/** 明細: the booking's lines and whatever the staff add, with quantities. */
export function CheckoutLines({
  lines,
  products,
  dispatch,
}: {
  lines: FormLine[];
  products: Product[];
  dispatch: Dispatch<CheckoutFormAction>;
}) {
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          明細
        </Title>
        {lines.length === 0 ? (
          <Text c="dimmed">明細がありません。商品または項目を追加してください。</Text>
        ) : (
          <Table aria-label="明細" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>品目</Table.Th>
                <Table.Th>数量</Table.Th>
                <Table.Th ta="right">金額</Table.Th>
                <Table.Th>
                  <VisuallyHidden>操作</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => (
                <Table.Tr key={line.key}>
                  <Table.Td>
                    {line.name}
                    {line.tax_rate === 8 ? ' ※' : ''}
                    <Text size="xs" c="dimmed">
                      {formatYen(line.unit_price)}（税込 {line.tax_rate}%）
                    </Text>
                  </Table.Td>
                  <Table.Td w={90}>
                    <NumberInput
                      aria-label={`${line.name}の数量`}
                      value={line.quantity}
                      min={1}
                      max={999}
                      allowDecimal={false}
                      allowNegative={false}
                      onChange={(value) =>
                        typeof value === 'number' &&
                        value >= 1 &&
                        dispatch({ type: 'setQuantity', key: line.key, quantity: value })
                      }
                    />
                  </Table.Td>
                  <Table.Td ta="right">{formatYen(lineAmount(line))}</Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`${line.name}を削除`}
                      onClick={() => dispatch({ type: 'removeLine', key: line.key })}
                    >
                      ×
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <AddProduct products={products} dispatch={dispatch} />
        <AddCustomLine dispatch={dispatch} />
      </Stack>
    </Paper>
  );
}

function AddProduct({ products, dispatch }: { products: Product[]; dispatch: Dispatch<CheckoutFormAction> }) {
  const [productId, setProductId] = useState('');
  const product = products.find((candidate) => String(candidate.id) === productId);
  return (
    <Group align="flex-end" gap="xs">
      <NativeSelect
        label="商品"
        data={[
          { value: '', label: products.length === 0 ? '商品がありません' : '商品を選択' },
          ...products.map((item) => ({ value: String(item.id), label: `${item.name} ${formatYen(item.price)}` })),
        ]}
        value={productId}
        onChange={(event) => setProductId(event.currentTarget.value)}
        style={{ flex: 1 }}
      />
      <Button
        variant="light"
        disabled={!product}
        onClick={() => {
          if (!product) return;
          dispatch({
            type: 'addLine',
            line: {
              kind: 'product',
              ref_id: product.id,
              name: product.name,
              unit_price: product.price,
              quantity: 1,
              tax_rate: product.tax_rate,
            },
          });
          setProductId('');
        }}
      >
        商品を追加
      </Button>
    </Group>
  );
}

/** A line outside the catalogue (パーツ, an extra): a name, a tax-inclusive price, a rate. */
function AddCustomLine({ dispatch }: { dispatch: Dispatch<CheckoutFormAction> }) {
  const [name, setName] = useState('');
  const [price, setPrice] = useState<number | ''>('');
  const [rate, setRate] = useState<string>('10');
  const valid = name.trim() !== '' && typeof price === 'number' && price >= 0;
  return (
    <Group align="flex-end" gap="xs" wrap="wrap">
      <TextInput
        label="項目名"
        placeholder="パーツ"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
      />
      <NumberInput
        label="金額（税込）"
        value={price}
        min={0}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=","
        onChange={(value) => setPrice(typeof value === 'number' ? value : '')}
        w={130}
      />
      <NativeSelect
        label="税率"
        data={TAX_RATE_OPTIONS}
        value={rate}
        onChange={(event) => setRate(event.currentTarget.value)}
        w={120}
      />
      <Button
        variant="light"
        disabled={!valid}
        onClick={() => {
          if (!valid) return;
          dispatch({
            type: 'addLine',
            line: {
              kind: 'custom',
              name: name.trim(),
              unit_price: price,
              quantity: 1,
              tax_rate: Number(rate) as TaxRate,
            },
          });
          setName('');
          setPrice('');
        }}
      >
        項目を追加
      </Button>
    </Group>
  );
}
