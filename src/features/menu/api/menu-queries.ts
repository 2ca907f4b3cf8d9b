import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createSalonOption,
  createService,
  deleteSalonOption,
  deleteService,
  fetchMenu,
  fetchSalonOptions,
  updateSalonOption,
  updateService,
  type SalonOptionPayload,
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

const salonOptionsQuery = queryOptions({
  queryKey: menuKeys.options(),
  queryFn: ({ signal }) => fetchSalonOptions(signal),
});

/** The salon's options, each with the menus that allow it (the menu screen's オプション section). */
export function useSalonOptions() {
  return useQuery(salonOptionsQuery);
}

/** A change refetches the menu too: GET /api/services/ lists each option under the menus that allow it. */
export function useSaveSalonOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: number; payload: SalonOptionPayload }) =>
      input.id === undefined ? createSalonOption(input.payload) : updateSalonOption(input.id, input.payload),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: menuKeys.all }),
  });
}

export function useDeleteSalonOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteSalonOption(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: menuKeys.all }),
  });
}
