import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createOption,
  createService,
  deleteOption,
  deleteService,
  fetchMenu,
  updateOption,
  updateService,
  type OptionPayload,
  type ServicePayload,
} from './menu-api';
import { menuKeys } from '#src/lib/query-keys';

const menuQuery = queryOptions({ queryKey: menuKeys.list(), queryFn: ({ signal }) => fetchMenu(signal) });

export function useMenu() {
  return useQuery(menuQuery);
}

export function useSaveService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: number; payload: ServicePayload }) =>
      input.id === undefined ? createService(input.payload) : updateService(input.id, input.payload),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: menuKeys.all }),
  });
}

export function useDeleteService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteService(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: menuKeys.all }),
  });
}

/** Options come with the menu (GET /api/services/ lists them under each service): a change refetches the menu. */
export function useSaveOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { serviceId: number; id?: number; payload: OptionPayload }) =>
      input.id === undefined
        ? createOption(input.serviceId, input.payload)
        : updateOption(input.serviceId, input.id, input.payload),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: menuKeys.all }),
  });
}

export function useDeleteOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { serviceId: number; optionId: number }) => deleteOption(input.serviceId, input.optionId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: menuKeys.all }),
  });
}
