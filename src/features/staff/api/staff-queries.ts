import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateStaffRequest, PatchStaffRequest } from '#src/shared/schemas/staff';
import { createStaff, fetchStaff, fetchStaffList, generateStaffLineLink, patchStaff } from './staff-api';
import { staffKeys } from '#src/lib/query-keys';

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
    onSuccess: (user) => {
      queryClient.setQueryData(staffKeys.detail(user.id), user);
      return queryClient.invalidateQueries({ queryKey: staffKeys.list() });
    },
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
    onSuccess: (user) => {
      queryClient.setQueryData(staffKeys.detail(user.id), user);
      return queryClient.invalidateQueries({ queryKey: staffKeys.list() });
    },
  });
}
