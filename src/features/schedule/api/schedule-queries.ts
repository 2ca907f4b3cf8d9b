import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchConfiguredDates, fetchSlots, fetchStaffMembers, saveSlots } from './schedule-api';
import { scheduleKeys } from '#src/lib/query-keys';

export const configuredDatesQuery = (year: number, month: number, userId?: number) =>
  queryOptions({
    queryKey: scheduleKeys.configuredDates(year, month, userId),
    queryFn: ({ signal }) => fetchConfiguredDates(year, month, userId, signal),
  });

export function useConfiguredDates(year: number, month: number, userId?: number) {
  return useQuery(configuredDatesQuery(year, month, userId));
}

export function useSlots(date: string, userId?: number) {
  return useQuery({
    queryKey: scheduleKeys.slots(date, userId),
    queryFn: ({ signal }) => fetchSlots(date, userId, signal),
    staleTime: 0,
  });
}

export function useSaveSlots() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSlots,
    onSuccess: (slots, input) => {
      queryClient.setQueryData(scheduleKeys.slots(input.date, input.userId), slots);
      // Both the calendar and the reservation dialogs' time lists depend on the slots.
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    },
  });
}

export function useStaffMembers(enabled: boolean) {
  return useQuery({
    queryKey: scheduleKeys.staff(),
    queryFn: ({ signal }) => fetchStaffMembers(signal),
    enabled,
    staleTime: 5 * 60_000,
  });
}
