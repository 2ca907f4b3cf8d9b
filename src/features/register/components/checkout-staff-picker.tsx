import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useAdminViewer } from '#src/components/staff-choice';
import { api } from '#src/lib/api-client';
import { isOwner, roleOf } from '#src/shared/roles';
import type { StaffUser } from '#src/shared/schemas/staff';

/**
 * 担当 of the checkout, whose takings it counts as (staff_id): the owner may name another staff member (a visit
 * taken over at the chair); everyone else rings up under the booking's 担当, or their own name.
 */
export function CheckoutStaffPicker({
  bookedStaffId,
  value,
  onChange,
}: {
  bookedStaffId: number | undefined;
  value: number | undefined;
  onChange(staffId: number | undefined): void;
}) {
  const viewer = useAdminViewer();
  const owner = viewer.data ? isOwner(roleOf(viewer.data)) : false;
  const staff = useQuery({
    queryKey: ['register', 'staff'],
    queryFn: ({ signal }) => api.get<StaffUser[]>('/api/admin/users/', { signal }),
    enabled: owner,
    staleTime: 5 * 60_000,
  });
  if (!owner || !staff.data) return null;
  const selected = value ?? bookedStaffId ?? viewer.data?.id;
  return (
    <NativeSelect
      label="担当スタッフ（売上の計上先）"
      value={selected === undefined ? '' : String(selected)}
      onChange={(event) => onChange(Number(event.currentTarget.value))}
      data={staff.data
        .filter((member) => member.is_active || member.id === selected)
        .map((member) => ({ value: String(member.id), label: member.full_name || member.username }))}
    />
  );
}
