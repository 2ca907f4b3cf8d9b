import { nowLocal } from '../../lib/device-time';

/** Whether a naive local date-time has begun (completed / no-show are offered only then). */
export function hasStarted(localDateTime: string): boolean {
  return localDateTime <= nowLocal();
}
