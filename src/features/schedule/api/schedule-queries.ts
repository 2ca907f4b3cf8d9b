import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchConfiguredDates, fetchSlots, fetchStaffMembers, saveSlots } from './schedule-api';

/** Query keys of the schedule; `userId` undefined is "my own" (or, for a superuser's calendar, everyone's). */
export const scheduleKeys = {
  all: ['schedule'] as const,
  configuredDates: (year: number, month: number, userId?: number) =>
    [...scheduleKeys.all, 'configured-dates', year, month, userId ?? 'self'] as const,
  slots: (date: string, userId?: number) => [...scheduleKeys.all, 'slots', date, userId ?? 'self'] as const,
  staff: () => [...scheduleKeys.all, 'staff'] as const,
};

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
