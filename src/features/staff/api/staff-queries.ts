import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateStaffRequest, PatchStaffRequest } from '#src/shared/schemas/staff';
import {
  createStaff,
  fetchStaff,
  fetchStaffList,
  generateStaffLineLink,
  patchStaff,
  uploadStaffPicture,
} from './staff-api';
import { bookingKeys, scheduleKeys, staffKeys } from '#src/lib/query-keys';
import type { StaffUser } from '#src/shared/schemas/staff';

/**
 * After a change to a staff member on this device: the answer becomes their detail, and every list of staff is read
 * again at once, here and on the screens not open now (受付時間設定's staff select, the booking dialog's staff and
 * 指名 lists, the customer's 指名 step), which would otherwise keep their copy for minutes, even across a reload.
 */
function staffChanged(queryClient: QueryClient, user: StaffUser) {
  queryClient.setQueryData(staffKeys.detail(user.id), user);
  return Promise.all(
    [staffKeys.list(), scheduleKeys.staff(), bookingKeys.staff()].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, refetchType: 'all' }),
    ),
  );
}

const staffListQuery = () =>
  queryOptions({ queryKey: staffKeys.list(), queryFn: ({ signal }) => fetchStaffList(signal) });

export function useStaffList() {
  return useQuery(staffListQuery());
}

const staffQuery = (id: number) =>
  queryOptions({ queryKey: staffKeys.detail(id), queryFn: ({ signal }) => fetchStaff(id, signal) });

export function useStaff(id: number) {
  return useQuery(staffQuery(id));
}

export function useCreateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...staffKeys.all, 'create'],
    mutationFn: (payload: CreateStaffRequest) => createStaff(payload),
    onSuccess: (user) => staffChanged(queryClient, user),
  });
}

export function useGenerateStaffLineLink(id: number) {
  return useMutation({
    mutationKey: [...staffKeys.detail(id), 'line-link'],
    mutationFn: () => generateStaffLineLink(id),
  });
}

/** Activates, deactivates or sets a new password; the detail shows the answer at once and the list is read again. */
export function usePatchStaff(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...staffKeys.detail(id), 'patch'],
    mutationFn: (payload: PatchStaffRequest) => patchStaff(id, payload),
    onSuccess: (user) => staffChanged(queryClient, user),
  });
}

/** Uploads a staff photo (owner only); the staff member's screens and lists show it at once. */
export function useUploadStaffPicture(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...staffKeys.detail(id), 'picture'],
    mutationFn: (photo: File) => uploadStaffPicture(id, photo, photo.name || 'photo.jpg'),
    onSuccess: (user) => staffChanged(queryClient, user),
  });
}
