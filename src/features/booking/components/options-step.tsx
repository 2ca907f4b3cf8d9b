import { Avatar, Button, Checkbox, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { formatDuration, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { BookableStaff, Service } from '#src/shared/schemas/booking';
import { bookableStaffQuery } from '../api/booking-api';
import { chosenOptions, menuTotal, optionNote } from '#src/lib/menu-total';

export interface OptionsStepProps {
  service: Service;
  optionIds: readonly number[];
  staff: BookableStaff | null;
  onToggleOption(optionId: number): void;
  onChooseStaff(staff: BookableStaff | null): void;
  onNext(): void;
}

/** The radio value of 指名なし (staff ids are positive). */
const NO_NOMINATION = 'none';

/** "指名料 +¥1,100" for a paid nomination, nothing when it is free. */
export function nominationFeeText(fee: string): string {
  return Number(fee) > 0 ? `指名料 +${formatYen(Number(fee))}` : '';
}

/**
 * The step after the menu: the service's options (checkboxes named by the option) and the nailist (a radio group
 * 「スタッフ指名」, 指名なし first and the default). The total time and price follow every change in a live region.
 */
export function OptionsStep({ service, optionIds, staff, onToggleOption, onChooseStaff, onNext }: OptionsStepProps) {
  const staffList = useQuery(bookableStaffQuery);
  const total = menuTotal(service, chosenOptions(service, optionIds), staff);

  return (
    <Stack gap="lg">
      <Text>
        <Text span fw={700}>
          {service.name}
        </Text>
        （{formatDuration(service.duration_minutes)} {formatYen(Number(service.price))}）
      </Text>

      {service.options.length > 0 && (
        <Checkbox.Group
          label="オプション"
          description="ご希望のオプションがあればお選びください（任意）"
          value={optionIds.map(String)}
        >
          <Stack gap="sm" mt="xs">
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

      {staffList.isPending ? (
        <LoadingState label="スタッフを読み込み中…" />
      ) : staffList.isError ? (
        <RetryAlert title={MESSAGES.bookableStaffLoadFailed} onRetry={() => void staffList.refetch()} />
      ) : (
        <Radio.Group
          label="スタッフ指名"
          description="担当するネイリストを指名できます"
          value={staff ? String(staff.id) : NO_NOMINATION}
          onChange={(value) => onChooseStaff(staffList.data.find((member) => String(member.id) === value) ?? null)}
        >
          <Stack gap="sm" mt="xs">
            <Radio value={NO_NOMINATION} label={MESSAGES.noNomination} description="空いているネイリストが担当します" />
            {staffList.data.map((member) => (
              <Group key={member.id} gap="sm" wrap="nowrap" align="flex-start">
                <Radio
                  value={String(member.id)}
                  label={[member.name, nominationFeeText(member.nomination_fee)].filter(Boolean).join(' ')}
                  description={member.profile || undefined}
                  style={{ flex: 1, minWidth: 0 }}
                />
                {member.picture_url && <Avatar src={member.picture_url} alt={member.name} size="lg" radius="xl" />}
              </Group>
            ))}
          </Stack>
        </Radio.Group>
      )}

      {/* Held at the foot of the screen: on a phone the total and the way on stay in sight below a long list. */}
      <Stack gap="xs" pos="sticky" bottom={0} py="xs" bg="var(--mantine-color-body)" style={{ zIndex: 1 }}>
        <Paper withBorder p="sm" bg="var(--mantine-color-gray-0)">
          <Text fw={700} role="status" aria-live="polite">
            合計 {formatDuration(total.minutes)} {formatYen(total.price)}
          </Text>
        </Paper>
        <Button size="md" fullWidth onClick={onNext}>
          この内容で日付を選ぶ
        </Button>
      </Stack>
    </Stack>
  );
}
