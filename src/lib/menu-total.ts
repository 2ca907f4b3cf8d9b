import { formatDuration, formatYen } from '#src/shared/format';
import type { BookableStaff, Service, ServiceOption } from '#src/shared/schemas/booking';

/**
 * What a menu choice costs and takes, as the server books it (server/scheduling/menu.ts): the service,
 * each option, and the 指名料 of a named staff member (time only from the service and its options).
 */
export interface MenuTotal {
  minutes: number;
  price: number;
}

/** The chosen options in the menu's own order (not the order they were ticked). */
export function chosenOptions(service: Service, optionIds: readonly number[]): ServiceOption[] {
  return service.options.filter((option) => optionIds.includes(option.id));
}

export function menuTotal(service: Service, options: readonly ServiceOption[], staff: BookableStaff | null): MenuTotal {
  return {
    minutes: options.reduce((sum, option) => sum + option.duration_minutes, service.duration_minutes),
    price:
      options.reduce((sum, option) => sum + Number(option.price), Number(service.price)) +
      Number(staff?.nomination_fee ?? 0),
  };
}

/** "+30分 +¥1,100" (an option without added time shows only its price). */
export function optionNote(option: ServiceOption): string {
  const time = option.duration_minutes > 0 ? `+${formatDuration(option.duration_minutes)} ` : '';
  return `${time}+${formatYen(Number(option.price))}`;
}
