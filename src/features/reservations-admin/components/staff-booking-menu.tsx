import { Checkbox, Paper, Radio, Select, Stack, Text } from '@mantine/core';
import { chosenOptions, menuTotal, optionNote } from '#src/lib/menu-total';
import { formatDuration, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { BookableStaff, Service } from '#src/shared/schemas/booking';
import { minutesToTime, timeToMinutes } from '#src/shared/slots';

/** A menu item as the select shows it: "name (N分) - ¥price". */
const serviceLabel = (service: Service) =>
  `${service.name} (${service.duration_minutes}分) - ${formatYen(Number(service.price))}`;

/** The menu select and the chosen menu's options (the customer wizard's choices, options-step.tsx). */
export function MenuFields({
  services,
  loading,
  service,
  optionIds,
  error,
  onService,
  onToggleOption,
}: {
  services: Service[];
  loading: boolean;
  service: Service | undefined;
  optionIds: readonly number[];
  error?: string;
  onService(serviceId: string | null): void;
  onToggleOption(optionId: number): void;
}) {
  return (
    <>
      <Select
        label="メニュー"
        required
        placeholder={loading ? '読み込み中…' : 'メニューを選択'}
        data={services.map((item) => ({ value: String(item.id), label: serviceLabel(item) }))}
        value={service ? String(service.id) : null}
        error={error}
        onChange={onService}
        comboboxProps={{ withinPortal: true }}
      />
      {service && service.options.length > 0 && (
        <Checkbox.Group label="オプション" value={optionIds.map(String)}>
          <Stack gap={6} mt={4}>
            {service.options.map((option) => (
              <Checkbox
                key={option.id}
                value={String(option.id)}
                label={option.name}
                description={optionNote(option)}
                onChange={() => onToggleOption(option.id)}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </>
  );
}

/**
 * 指名 or 指名なし for the staff member booked for. Someone customers cannot name (指名を受け付けない, or not listed
 * in GET /api/staff/) is booked without 指名.
 */
export function NominationChoice({
  nominee,
  nominated,
  onChange,
}: {
  nominee: BookableStaff | undefined;
  nominated: boolean;
  onChange(nominated: boolean): void;
}) {
  const fee = Number(nominee?.nomination_fee ?? 0);
  return (
    <Radio.Group
      label="指名"
      value={nominee && nominated ? 'nominated' : 'none'}
      onChange={(value) => onChange(value === 'nominated')}
      description={nominee ? undefined : 'このスタッフは指名を受け付けていません'}
    >
      <Stack gap={6} mt={4}>
        <Radio value="none" label={MESSAGES.noNomination} />
        <Radio
          value="nominated"
          disabled={!nominee}
          label={fee > 0 ? `指名あり（指名料 +${formatYen(fee)}）` : '指名あり'}
        />
      </Stack>
    </Radio.Group>
  );
}

/** The total time and price as the server books them (menu-total.ts), with the end time once a start is chosen. */
export function BookingTotal({
  service,
  optionIds,
  nominee,
  time,
}: {
  service: Service;
  optionIds: readonly number[];
  nominee: BookableStaff | undefined;
  time: string | null;
}) {
  const total = menuTotal(service, chosenOptions(service, optionIds), nominee ?? null);
  const span = time ? `（${time}〜${minutesToTime(timeToMinutes(time) + total.minutes)}）` : '';
  return (
    <Paper withBorder p="sm" bg="var(--mantine-color-gray-0)">
      <Text fw={700} role="status" aria-live="polite">
        合計 {formatDuration(total.minutes)} {formatYen(total.price)}
        {span}
      </Text>
    </Paper>
  );
}
