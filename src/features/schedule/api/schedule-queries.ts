import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addHoliday,
  deleteHoliday,
  fetchConfiguredDates,
  fetchHolidays,
  fetchScheduleDays,
  fetchShifts,
  fetchSlots,
  fetchStaffMembers,
  revertDay,
  saveShifts,
  saveSlots,
} from './schedule-api';
import { scheduleKeys } from '#src/lib/query-keys';

const configuredDatesQuery = (year: number, month: number, userId?: number) =>
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
    // Read again whenever 受付時間設定 opens (the kept copy shows meanwhile): a staff member added on another device
    // is there at once, not five minutes later (issue 32).
    staleTime: 0,
  });
}

export function useShifts(userId?: number) {
  return useQuery({
    queryKey: scheduleKeys.shifts(userId),
    queryFn: ({ signal }) => fetchShifts(userId, signal),
  });
}

export function useScheduleDays(year: number, month: number, userId?: number) {
  return useQuery({
    queryKey: scheduleKeys.days(year, month, userId),
    queryFn: ({ signal }) => fetchScheduleDays(year, month, userId, signal),
  });
}

export function useHolidays(year: number, month: number, enabled: boolean) {
  return useQuery({
    queryKey: scheduleKeys.holidays(year, month),
    queryFn: ({ signal }) => fetchHolidays(year, month, signal),
    enabled,
  });
}

/**
 * A change of working time reaches every answer of the screen (the calendar's colours, a day's times, the
 * reservation dialogs' time lists): they are all read again.
 */
function useScheduleChange<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}

export const useSaveShifts = () => useScheduleChange(saveShifts);
export const useRevertDay = () => useScheduleChange(revertDay);
export const useAddHoliday = () => useScheduleChange(addHoliday);
export const useDeleteHoliday = () => useScheduleChange(deleteHoliday);
