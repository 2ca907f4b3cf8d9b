import { Alert, Button, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { fieldErrorsOf } from '#src/lib/api-errors';
import { showNotification } from '#src/lib/notify';
import { MAX_OPTION_MINUTES, OPTION_MINUTES_STEP } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { Service, ServiceOption } from '#src/shared/schemas/booking';
import { useSaveOption } from '../api/menu-queries';

type Field = 'name' | 'price' | 'duration_minutes';
type FieldErrors = Partial<Record<Field, string>>;

interface OptionFormProps {
  /** The service the option belongs to. */
  service: Service;
  /** The option to edit, or null for a new one. */
  option: ServiceOption | null;
  onClose(): void;
}

/** Whether the form's minutes are what the server accepts (src/shared/schemas/menu.ts): 0 to 180 in steps of 5. */
function validMinutes(value: number | string): boolean {
  if (value === '') return false;
  const minutes = Number(value);
  return (
    Number.isInteger(minutes) && minutes >= 0 && minutes <= MAX_OPTION_MINUTES && minutes % OPTION_MINUTES_STEP === 0
  );
}

/** Add and edit an option (オプション) of one service: name, price (¥0 by default) and the minutes it adds. */
export function OptionFormDialog(props: OptionFormProps) {
  return (
    <Modal opened onClose={props.onClose} title={props.option ? 'オプションを編集' : 'オプションを追加'} centered>
      <OptionForm {...props} />
    </Modal>
  );
}

function OptionForm({ service, option, onClose }: OptionFormProps) {
  const save = useSaveOption();
  const [name, setName] = useState(option?.name ?? '');
  const [price, setPrice] = useState<number | string>(option ? Number(option.price) : 0);
  const [minutes, setMinutes] = useState<number | string>(option?.duration_minutes ?? 0);
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const found: FieldErrors = {};
    if (!name.trim()) found.name = MESSAGES.fieldRequired;
    if (price === '' || price === null) found.price = MESSAGES.fieldRequired;
    else if (!Number.isInteger(Number(price)) || Number(price) < 0) found.price = MESSAGES.priceInvalid;
    if (minutes === '' || minutes === null) found.duration_minutes = MESSAGES.fieldRequired;
    else if (!validMinutes(minutes)) found.duration_minutes = MESSAGES.optionDurationInvalid;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      {
        serviceId: service.id,
        id: option?.id,
        payload: { name: name.trim(), price: Number(price), duration_minutes: Number(minutes) },
      },
      {
        onSuccess: () => {
          showNotification({
            color: 'green',
            message: option ? 'オプションを更新しました。' : 'オプションを追加しました。',
          });
          onClose();
        },
        // As in the service form: what the server refused shows under its field.
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          setErrors({ name: fields.name, price: fields.price, duration_minutes: fields.duration_minutes });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          メニュー：{service.name}
        </Text>
        <TextInput
          label="オプション名"
          required
          maxLength={100}
          value={name}
          error={errors.name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <NumberInput
          label="料金（円）"
          required
          min={0}
          step={100}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          value={price}
          error={errors.price}
          onChange={setPrice}
        />
        <NumberInput
          label="追加時間（分）"
          description="0〜180分、5分単位"
          required
          min={0}
          max={MAX_OPTION_MINUTES}
          step={OPTION_MINUTES_STEP}
          allowDecimal={false}
          allowNegative={false}
          value={minutes}
          error={errors.duration_minutes}
          onChange={setMinutes}
        />
        {save.isError && <Alert color="red" role="alert" title={errorDetail(save.error, MESSAGES.serverError)} />}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            キャンセル
          </Button>
          <Button type="submit" loading={save.isPending}>
            保存
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
