import { Alert, Button, Checkbox, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { fieldErrorsOf } from '#src/lib/api-errors';
import { showNotification } from '#src/lib/notify';
import { MAX_OPTION_MINUTES, OPTION_MINUTES_STEP } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import type { SalonOption } from '#src/shared/schemas/menu';
import { useSaveSalonOption } from '../api/menu-queries';

type Field = 'name' | 'price' | 'duration_minutes' | 'service_ids';
type FieldErrors = Partial<Record<Field, string>>;

interface OptionFormProps {
  /** The option to edit, or null for a new one. */
  option: SalonOption | null;
  /** The menu's services: the ones the option may be allowed by. */
  services: readonly Service[];
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

/**
 * Add and edit an option (オプション) of the salon: name, price (¥0 by default), the minutes it adds, and the menus
 * that allow it. One option serves every menu ticked here, so its price and time are kept in one place.
 */
export function OptionFormDialog(props: OptionFormProps) {
  return (
    <Modal opened onClose={props.onClose} title={props.option ? 'オプションを編集' : 'オプションを追加'} centered>
      <OptionForm {...props} />
    </Modal>
  );
}

function OptionForm({ option, services, onClose }: OptionFormProps) {
  const save = useSaveSalonOption();
  const [name, setName] = useState(option?.name ?? '');
  const [price, setPrice] = useState<number | string>(option?.price ?? 0);
  const [minutes, setMinutes] = useState<number | string>(option?.duration_minutes ?? 0);
  const [serviceIds, setServiceIds] = useState<string[]>(option?.service_ids.map(String) ?? []);
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
    const payload = {
      name: name.trim(),
      price: Number(price),
      duration_minutes: Number(minutes),
      // In menu order, whatever order they were ticked in.
      service_ids: services.filter((service) => serviceIds.includes(String(service.id))).map((service) => service.id),
    };
    save.mutate(
      { id: option?.id, payload },
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
          setErrors({
            name: fields.name,
            price: fields.price,
            duration_minutes: fields.duration_minutes,
            service_ids: fields.service_ids,
          });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
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
        <Checkbox.Group
          label="このオプションを使えるメニュー"
          description="料金と時間は、選んだすべてのメニューで共通です。"
          value={serviceIds}
          onChange={setServiceIds}
          error={errors.service_ids}
        >
          {services.length === 0 ? (
            <Text size="sm" c="dimmed" mt={6}>
              メニューがまだありません。
            </Text>
          ) : (
            <Stack gap={6} mt={6}>
              {services.map((service) => (
                <Checkbox key={service.id} value={String(service.id)} label={service.name} />
              ))}
            </Stack>
          )}
        </Checkbox.Group>
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
