import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { publicConfig } from '../../tests/setup/fixtures';
import { server } from '../../tests/setup/msw-server';
import { renderWithProviders } from '../../tests/setup/render';
import { SalonContact, SalonContactView, telHref } from './salon-contact';

describe('salon contact', () => {
  it('shows the phone as a tap-to-call link, the address, the map link and the hours from GET /api/config/', async () => {
    server.use(http.get('/api/config/', () => HttpResponse.json(publicConfig)));
    renderWithProviders(<SalonContact />);
    const call = await screen.findByRole('link', { name: /03-1234-5678/ });
    expect(call).toHaveAttribute('href', 'tel:0312345678');
    expect(screen.getByText(/東京都渋谷区神南1-2-3/)).toBeInTheDocument();
    const map = screen.getByRole('link', { name: '地図を開く' });
    expect(map).toHaveAttribute('href', 'https://maps.example.com/sakura');
    expect(map).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText(/火曜定休/)).toBeInTheDocument();
  });

  it('leaves out what is not given, and shows nothing when nothing is', () => {
    const empty = { phone_number: '', address: '', map_url: '', opening_hours_text: '' };
    const first = renderWithProviders(<SalonContactView contact={empty} title="連絡先" />);
    expect(screen.queryByText('連絡先')).not.toBeInTheDocument();
    first.unmount();
    renderWithProviders(<SalonContactView contact={{ ...empty, phone_number: '090-1111-2222' }} />);
    expect(screen.getByRole('link', { name: /090-1111-2222/ })).toHaveAttribute('href', 'tel:09011112222');
    expect(screen.queryByRole('link', { name: '地図を開く' })).not.toBeInTheDocument();
    expect(telHref('03-1234-5678')).toBe('tel:0312345678');
  });
});
