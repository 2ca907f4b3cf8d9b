import { Anchor, Table } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeReservation, setDesktop } from '#tests/setup/admin-fixtures';
import { renderRoute, renderWithProviders } from '#tests/setup/render';
import * as format from '#src/shared/format';
import type { Reservation } from '#src/shared/schemas/reservations';
import { ReservationList } from './reservation-list';

const attributes = (element: Element) =>
  Object.fromEntries([...element.attributes].map((attribute) => [attribute.name, attribute.value]));

let restoreMedia: (() => void) | undefined;
afterEach(() => {
  restoreMedia?.();
  restoreMedia = undefined;
});

/**
 * The reservations with a counter of their renders: a row (or card) reads its reservation's start once per render, to
 * format it. A counting property rather than a mocked format module: it counts what the rows read whichever helper
 * they format with, and holds if the files of a worker ever share their modules (a module mock would then not reach
 * a component another file loaded first).
 */
function countingStartReads(reservations: Reservation[]) {
  let reads = 0;
  const counted = reservations.map(
    ({ start_time, ...rest }) =>
      Object.defineProperty({ ...rest }, 'start_time', {
        enumerable: true,
        get: () => {
          reads += 1;
          return start_time;
        },
      }) as Reservation,
  );
  return { counted, reads: () => reads };
}

/** A list whose parent renders again (a new placeholder state, a fetch flag) without new reservations. */
function Rerendering({ reservations }: { reservations: Reservation[] }) {
  const [count, setCount] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setCount(count + 1)}>
        again {count}
      </button>
      <ReservationList reservations={reservations} />
    </>
  );
}

describe('reservation list (desktop table)', () => {
  it("renders rows and cells with exactly Mantine's table and link markup", () => {
    restoreMedia = setDesktop(true);
    const reservation = makeReservation({ start_time: '2030-01-15T10:30:00' });
    renderWithProviders(
      <>
        <ReservationList reservations={[reservation]} />
        <Table highlightOnHover verticalSpacing="sm" aria-label="Mantine">
          <Table.Tbody>
            <Table.Tr style={{ cursor: 'pointer' }}>
              <Table.Td>
                <Anchor href="/admin/reservations/x">x</Anchor>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </>,
    );
    const ours = screen.getByRole('table', { name: '予約一覧' });
    const mantine = screen.getByRole('table', { name: 'Mantine' });
    const row = (table: HTMLElement) => table.querySelector('tbody tr')!;
    expect(attributes(row(ours))).toEqual(attributes(row(mantine)));
    expect(attributes(row(ours).querySelector('td')!)).toEqual(attributes(row(mantine).querySelector('td')!));
    const { href: ourHref, ...ourLink } = attributes(within(ours).getByRole('link'));
    const { href: mantineHref, ...mantineLink } = attributes(within(mantine).getByRole('link'));
    expect(ourLink).toEqual(mantineLink);
    expect(ourHref).toBe(`/admin/reservations/${reservation.reservation_number}`);
    expect(mantineHref).toBe('/admin/reservations/x');
  });

  it('keeps every row in the page, links in the order of the rows', () => {
    restoreMedia = setDesktop(true);
    const reservations = Array.from({ length: 40 }, (_, i) =>
      makeReservation({
        start_time: `2030-01-15T${String(9 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00`,
      }),
    );
    renderWithProviders(<ReservationList reservations={reservations} />);
    const table = screen.getByRole('table', { name: '予約一覧' });
    expect(table.querySelectorAll('tr')).toHaveLength(41);
    const links = [...table.querySelectorAll('a[href]')];
    expect(links.map((link) => link.textContent)).toEqual(
      reservations.map((reservation) => format.formatDateTimeRangeJa(reservation.start_time, reservation.end_time)),
    );
  });

  it('does not render the rows again when its parent renders with the same reservations', async () => {
    restoreMedia = setDesktop(true);
    const { counted, reads } = countingStartReads([makeReservation(), makeReservation(), makeReservation()]);
    renderWithProviders(<Rerendering reservations={counted} />);
    expect(screen.getAllByRole('link')).toHaveLength(3);
    const rendered = reads();
    expect(rendered).toBeGreaterThanOrEqual(3);
    await userEvent.click(screen.getByRole('button', { name: 'again 0' }));
    expect(screen.getByRole('button', { name: 'again 1' })).toBeInTheDocument();
    expect(reads()).toBe(rendered);
  });

  it('opens the detail from a click anywhere on the row, and from the link', async () => {
    restoreMedia = setDesktop(true);
    const reservation = makeReservation({ customer_name: '山田 花子' });
    const routes = [
      { path: '/admin/reservations', element: <ReservationList reservations={[reservation]} /> },
      { path: '/admin/reservations/:reservationNumber', element: <p>detail page</p> },
    ];
    const path = `/admin/reservations/${reservation.reservation_number}`;
    const { router } = renderRoute('/admin/reservations', { routes });
    await userEvent.click(screen.getByText('山田 花子 様'));
    expect(router.state.location.pathname).toBe(path);

    await router.navigate(-1);
    await userEvent.click(
      await screen.findByRole('link', {
        name: format.formatDateTimeRangeJa(reservation.start_time, reservation.end_time),
      }),
    );
    expect(router.state.location.pathname).toBe(path);
    await router.navigate(-1);
    // One navigation per click: the link's click does not reach the row's handler as well.
    expect(router.state.location.pathname).toBe('/admin/reservations');

    // With a modifier key (a new tab or window), the browser follows the link; the app stays where it is.
    const user = userEvent.setup();
    await user.keyboard('{Control>}');
    await user.click(await screen.findByRole('link'));
    await user.keyboard('{/Control}');
    expect(router.state.location.pathname).toBe('/admin/reservations');
  });
});

describe('reservation list (phone cards)', () => {
  it('opens the detail from a card', async () => {
    restoreMedia = setDesktop(false);
    const reservation = makeReservation({ customer_name: '山田 花子' });
    const routes = [
      { path: '/admin/reservations', element: <ReservationList reservations={[reservation]} /> },
      { path: '/admin/reservations/:reservationNumber', element: <p>detail page</p> },
    ];
    const { router } = renderRoute('/admin/reservations', { routes });
    const card = screen.getByRole('link', { name: /山田 花子 様/ });
    expect(card).toHaveAttribute('href', `/admin/reservations/${reservation.reservation_number}`);
    await userEvent.click(card);
    expect(await screen.findByText('detail page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/admin/reservations/${reservation.reservation_number}`);
  });

  it('does not render the cards again when its parent renders with the same reservations', async () => {
    restoreMedia = setDesktop(false);
    const { counted, reads } = countingStartReads([makeReservation(), makeReservation()]);
    renderWithProviders(<Rerendering reservations={counted} />);
    expect(within(screen.getByRole('list', { name: '予約一覧' })).getAllByRole('listitem')).toHaveLength(2);
    const rendered = reads();
    expect(rendered).toBeGreaterThanOrEqual(2);
    await userEvent.click(screen.getByRole('button', { name: 'again 0' }));
    expect(screen.getByRole('button', { name: 'again 1' })).toBeInTheDocument();
    expect(reads()).toBe(rendered);
  });
});
