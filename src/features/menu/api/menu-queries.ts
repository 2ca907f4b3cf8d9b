import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createService, deleteService, fetchMenu, updateService, type ServicePayload } from './menu-api';
import { menuKeys } from '#src/lib/query-keys';

export const menuQuery = queryOptions({ queryKey: menuKeys.list(), queryFn: ({ signal }) => fetchMenu(signal) });

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
