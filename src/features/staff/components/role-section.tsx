import { Select, Text } from '@mantine/core';
import { errorDetail } from '#src/lib/api-client';
import { toast } from '#src/lib/notify';
import { STAFF_ROLE_LABELS, type StaffRole } from '#src/shared/roles';
import type { StaffUser } from '#src/shared/schemas/staff';
import { usePatchStaff } from '../api/staff-queries';
import { ROLE_OPTIONS } from './staff-labels';

const ROLE_CHANGE_FAILED = '権限を変更できませんでした。';

/**
 * 権限 on the staff detail: the owner picks オーナー, 受付 or ネイリスト and it is saved at once. Your own role (and any
 * role until it is known who is looking) is shown, not offered: the server refuses your own too, so that the last
 * owner always stays one.
 */
export function RoleSection({ user, canChange }: { user: StaffUser; canChange: boolean }) {
  const patch = usePatchStaff(user.id);
  if (!canChange) {
    return (
      <div>
        <Text size="xs" c="dimmed">
          権限
        </Text>
        <Text>{STAFF_ROLE_LABELS[user.role]}</Text>
      </div>
    );
  }
  const change = (value: string | null) => {
    if (!value || value === user.role) return;
    patch.mutate(
      { role: value as StaffRole },
      {
        onSuccess: (saved) => toast('green', `権限を「${STAFF_ROLE_LABELS[saved.role]}」に変更しました。`),
        onError: (error) => toast('red', errorDetail(error, ROLE_CHANGE_FAILED)),
      },
    );
  };
  return (
    <Select
      label="権限"
      description="受付: すべての予約・顧客と会計。オーナー: 加えて設定・社員管理・統計。"
      allowDeselect={false}
      data={ROLE_OPTIONS}
      value={user.role}
      onChange={change}
      disabled={patch.isPending}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
