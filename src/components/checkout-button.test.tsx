import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#tests/setup/render';
import { CheckoutButton } from './checkout-button';

describe('会計 button', () => {
  it("opens a reservation's checkout, or a customer's", () => {
    renderWithProviders(
      <>
        <CheckoutButton reservationNumber="0b6f3c1e-8a7d-4e7b-9a51-3f0d2c9e1a44" status="confirmed" />
        <CheckoutButton customerId={7} />
      </>,
    );
    const [reservation, customer] = screen.getAllByRole('link', { name: '会計' });
    expect(reservation).toHaveAttribute('href', '/admin/reservations/0b6f3c1e-8a7d-4e7b-9a51-3f0d2c9e1a44/checkout');
    expect(customer).toHaveAttribute('href', '/admin/customers/7/checkout');
  });

  it.each(['cancelled', 'no_show'])('is left out for a %s booking', (status) => {
    renderWithProviders(<CheckoutButton reservationNumber="x" status={status} />);
    expect(screen.queryByRole('link', { name: '会計' })).not.toBeInTheDocument();
  });
});
