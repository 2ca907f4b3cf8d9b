import { useParams } from 'react-router';

/** The `:customerId` of the admin routes, or null when it is not a positive integer (shown as not found). */
export function useCustomerId(): number | null {
  const { customerId } = useParams();
  const id = Number(customerId);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
