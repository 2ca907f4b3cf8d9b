import { Button } from '@mantine/core';
import { Link } from 'react-router';

/**
 * Where the register's screens live (src/features/register). Here, not in the feature, because the reservation and
 * customer pages link to the checkout and features never import each other.
 */
export const registerPaths = {
  reservationCheckout: (number: string) => `/admin/reservations/${encodeURIComponent(number)}/checkout`,
  customerCheckout: (customerId: number) => `/admin/customers/${customerId}/checkout`,
  closing: '/admin/register',
  products: '/admin/products',
};

/** A booking that was cancelled or not visited has nothing to check out (the server refuses it too). */
const NOT_CHECKED_OUT = new Set(['cancelled', 'no_show']);

/**
 * The 会計 button of a reservation's or a customer's page: opens the checkout screen for them. A reservation's
 * button is left out for a cancelled or no-show booking.
 */
export function CheckoutButton(props: { reservationNumber: string; status: string } | { customerId: number }) {
  if ('status' in props && NOT_CHECKED_OUT.has(props.status)) return null;
  const to =
    'reservationNumber' in props
      ? registerPaths.reservationCheckout(props.reservationNumber)
      : registerPaths.customerCheckout(props.customerId);
  return (
    <Button component={Link} to={to} color="teal">
      会計
    </Button>
  );
}
