import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { errorDetail } from '#src/lib/api-client';
import { formatYen } from '#src/shared/format';
import type { Product } from '#src/shared/schemas/register';
import type { ProductInput } from '../api/register-api';
import { useProducts, useRetireProduct, useSaveProduct } from '../api/register-queries';

const TAX_RATES = [
  { value: '10', label: '10%（標準税率）' },
  { value: '8', label: '8%（軽減税率）' },
];

/** Add or edit one product: name, tax-inclusive price, rate. */
function ProductDialog({ editing, onClose }: { editing: Product | 'new' | null; onClose(): void }) {
  const product = editing === 'new' ? null : editing;
  const [name, setName] = useState(product?.name ?? '');
  const [price, setPrice] = useState<number | ''>(product?.price ?? '');
  const [rate, setRate] = useState(String(product?.tax_rate ?? 10));
  const save = useSaveProduct();
  const valid = name.trim() !== '' && price !== '';
  const submit = () => {
    if (price === '') return;
    const input: ProductInput = { name: name.trim(), price, tax_rate: rate === '8' ? 8 : 10 };
    save.mutate({ id: product?.id ?? null, input }, { onSuccess: onClose });
  };
  return (
    <Modal opened={editing !== null} onClose={onClose} title={product ? '商品を編集' : '商品を追加'} centered>
      <Stack>
        <TextInput
          label="商品名"
          required
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <NumberInput
          label="価格（税込・円）"
          required
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          value={price}
          onChange={(value) => setPrice(typeof value === 'number' ? value : '')}
        />
        <NativeSelect
          label="税率"
          data={TAX_RATES}
          value={rate}
          onChange={(event) => setRate(event.currentTarget.value)}
        />
        {save.isError && (
          <Alert color="red" role="alert">
            {errorDetail(save.error, '保存できませんでした。')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            キャンセル
          </Button>
          <Button disabled={!valid} loading={save.isPending} onClick={submit}>
            保存
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** 商品管理 (superuser): the catalogue the checkout sells from (物販). */
export function ProductsPage() {
  const products = useProducts();
  const retire = useRetireProduct();
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const [retiring, setRetiring] = useState<Product | null>(null);

  let content;
  if (products.isPending) content = <LoadingState label="読み込み中..." />;
  else if (products.isError)
    content = (
      <Text c="red" role="alert">
        {errorDetail(products.error, '商品を読み込めませんでした。')}
      </Text>
    );
  else if (products.data.length === 0) content = <Text c="dimmed">商品はまだありません。</Text>;
  else
    content = (
      <Table aria-label="商品">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>商品名</Table.Th>
            <Table.Th ta="right">価格（税込）</Table.Th>
            <Table.Th>税率</Table.Th>
            <Table.Th>操作</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {products.data.map((product) => (
            <Table.Tr key={product.id}>
              <Table.Td>{product.name}</Table.Td>
              <Table.Td ta="right">{formatYen(product.price)}</Table.Td>
              <Table.Td>{product.tax_rate === 8 ? '8%（軽減）' : '10%'}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`${product.name}を編集`}
                    onClick={() => setEditing(product)}
                  >
                    編集
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    aria-label={`${product.name}を販売終了`}
                    onClick={() => setRetiring(product)}
                  >
                    販売終了
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );

  return (
    <Stack>
      <title>商品管理</title>
      <Group justify="space-between">
        <Title order={1}>商品管理</Title>
        <Button onClick={() => setEditing('new')}>商品を追加</Button>
      </Group>
      {retire.isError && (
        <Alert color="red" role="alert">
          {errorDetail(retire.error, '販売終了にできませんでした。')}
        </Alert>
      )}
      <Paper withBorder p="md">
        {content}
      </Paper>
      {editing !== null && (
        <ProductDialog
          key={editing === 'new' ? 'new' : editing.id}
          editing={editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={retiring !== null}
        message={`「${retiring?.name ?? ''}」を販売終了にしますか？会計の商品一覧から外れます（これまでの領収書はそのままです）。`}
        confirmLabel="販売終了"
        color="red"
        onCancel={() => setRetiring(null)}
        onConfirm={() => {
          if (retiring) retire.mutate(retiring.id);
          setRetiring(null);
        }}
      />
    </Stack>
  );
}
