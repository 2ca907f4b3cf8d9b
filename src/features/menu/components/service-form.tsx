import { Alert, Button, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { fieldErrorsOf } from '#src/lib/api-errors';
import { showNotification } from '#src/lib/notify';
import { DEFAULT_SERVICE_DURATION, DEFAULT_SERVICE_PRICE } from '#src/shared/constants';
import { formatDuration } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import {
  isServiceDuration,
  REBOOK_CYCLE_MAX_DAYS,
  REBOOK_CYCLE_MIN_DAYS,
  SERVICE_DURATION_MAX,
  SERVICE_DURATION_MIN,
  SERVICE_DURATION_STEP,
} from '#src/shared/schemas/menu';
import { useSaveService } from '../api/menu-queries';

type Field = 'name' | 'price' | 'duration_minutes' | 'rebook_cycle_days';
type FieldErrors = Partial<Record<Field, string>>;

/** docs/screens.md#menu-management: 15 to 240 minutes in steps of 5, with 1時間半 beside 90. */
const durationHint = (minutes: number | string) =>
  isServiceDuration(Number(minutes)) && Number(minutes) >= 60
    ? `${formatDuration(Number(minutes))}・${SERVICE_DURATION_MIN}〜${SERVICE_DURATION_MAX}分、${SERVICE_DURATION_STEP}分単位`
    : `${SERVICE_DURATION_MIN}〜${SERVICE_DURATION_MAX}分、${SERVICE_DURATION_STEP}分単位`;

interface ServiceFormProps {
  /** The service to edit, or null for a new one. */
  service: Service | null;
  onClose(): void;
}

/** Add and edit (docs/screens.md#menu-management): name required, price ≥ 0, defaults ¥0 and 90 minutes. */
export function ServiceFormDialog({ service, onClose }: ServiceFormProps) {
  return (
    <Modal opened onClose={onClose} title={service ? 'メニューを編集' : 'メニューを追加'} centered>
      <ServiceForm service={service} onClose={onClose} />
    </Modal>
  );
}

function ServiceForm({ service, onClose }: ServiceFormProps) {
  const save = useSaveService();
  const [name, setName] = useState(service?.name ?? '');
  const [price, setPrice] = useState<number | string>(service ? Number(service.price) : DEFAULT_SERVICE_PRICE);
  const [duration, setDuration] = useState<number | string>(service?.duration_minutes ?? DEFAULT_SERVICE_DURATION);
  const [rebookCycle, setRebookCycle] = useState<number | string>(service?.rebook_cycle_days ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const found: FieldErrors = {};
    if (!name.trim()) found.name = MESSAGES.fieldRequired;
    if (price === '' || price === null) found.price = MESSAGES.fieldRequired;
    else if (!Number.isInteger(Number(price)) || Number(price) < 0) found.price = MESSAGES.priceInvalid;
    if (duration === '' || duration === null) found.duration_minutes = MESSAGES.fieldRequired;
    else if (!isServiceDuration(Number(duration))) found.duration_minutes = MESSAGES.durationInvalid;
    const cycle = rebookCycle === '' || rebookCycle === null ? null : Number(rebookCycle);
    if (
      cycle !== null &&
      !(Number.isInteger(cycle) && cycle >= REBOOK_CYCLE_MIN_DAYS && cycle <= REBOOK_CYCLE_MAX_DAYS)
    )
      found.rebook_cycle_days = MESSAGES.rebookCycleInvalid;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      {
        id: service?.id,
        payload: {
          name: name.trim(),
          price: Number(price),
          duration_minutes: Number(duration),
          rebook_cycle_days: cycle,
        },
      },
      {
        onSuccess: () => {
          showNotification({
            color: 'green',
            message: service ? 'メニューを更新しました。' : 'メニューを追加しました。',
          });
          onClose();
        },
        // docs/screens.md#menu-management "service save failure shows the server data": its field messages go under the fields.
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          setErrors({
            name: fields.name,
            price: fields.price,
            duration_minutes: fields.duration_minutes,
            rebook_cycle_days: fields.rebook_cycle_days,
          });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="メニュー名"
          required
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
          label="所要時間（分）"
          description={durationHint(duration)}
          required
          min={SERVICE_DURATION_MIN}
          max={SERVICE_DURATION_MAX}
          step={SERVICE_DURATION_STEP}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          suffix="分"
          value={duration}
          error={errors.duration_minutes}
          onChange={setDuration}
        />
        <NumberInput
          label="再来店のご案内（日数）"
          description={`ご来店からこの日数が経っても次のご予約がないお客様に、LINEでご案内を1回お送りします（${REBOOK_CYCLE_MIN_DAYS}〜${REBOOK_CYCLE_MAX_DAYS}日、空欄なら送りません）。`}
          min={REBOOK_CYCLE_MIN_DAYS}
          max={REBOOK_CYCLE_MAX_DAYS}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          suffix="日"
          value={rebookCycle}
          error={errors.rebook_cycle_days}
          onChange={setRebookCycle}
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
