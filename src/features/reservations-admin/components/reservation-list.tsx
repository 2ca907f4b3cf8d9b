import { Anchor, Card, Group, Stack, Table, Text } from '@mantine/core';
import { memo, type MouseEvent } from 'react';
import { useNavigate, type NavigateFunction } from 'react-router';
import { ReservationIncidentBadge } from '#src/components/incident-badge';
import { useIsDesktop } from '#src/lib/use-is-desktop';
import { formatDateTimeRangeJa } from '#src/shared/format';
import type { Reservation } from '#src/shared/schemas/reservations';
import { ReservationStatusWithPending } from './pending-status';
import { paths } from '#src/lib/paths';

const detailPath = (reservation: Reservation) => paths.adminReservation(reservation.reservation_number);

/**
 * docs/screens.md#admin-reservation-list: cards on mobile, a table on desktop; a row opens the detail.
 *
 * A list holds up to a page of 500 reservations, so it is built to be cheap to replace (issue 17, the offline day
 * list after the 500-row default list): the list and each row are memoised, so that a filter change, which keeps
 * the old rows on screen while the new ones load, does not render the old 500 again; and the table's rows and
 * cells are plain elements carrying Mantine's own classes (reservation-list.test.tsx checks they match) rather than
 * Mantine components, each of which resolves props and styles on every render; and the links are plain `a` elements
 * (see `openInApp`) rather than the router's Link, which reads the location, so that the 500 rows would render again
 * on every change of the address, before the new answer is even asked for. Every row stays in the page (no
 * windowing), so the table keeps its real row count for screen readers, the keyboard reaches every link in order,
 * and the browser's find-in-page searches the whole list.
 */
export const ReservationList = memo(function ReservationList({ reservations }: { reservations: Reservation[] }) {
  const desktop = useIsDesktop();
  return desktop ? <ReservationTable reservations={reservations} /> : <ReservationCards reservations={reservations} />;
});

/** What Mantine's Table.Tr and Table.Td render inside `<Table highlightOnHover>` (row borders on by default). */
const ROW_CLASS = `${Table.classes.tr} mantine-Table-tr`;
const CELL_CLASS = `${Table.classes.td} mantine-Table-td`;
/** What Mantine's `<Anchor>` renders (a Text as `a`, underlined on hover). */
const LINK_CLASS = `mantine-focus-auto ${Anchor.classes.root} ${Text.classes.root} mantine-Text-root mantine-Anchor-root`;

/**
 * What the router's Link does with a click, for a plain link: a left click without a modifier key opens the page in
 * the app; the others (a new tab, a new window) stay the browser's, which follows the real `href`.
 */
function openInApp(event: MouseEvent<HTMLAnchorElement>, navigate: NavigateFunction, path: string) {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  void navigate(path);
}

function ReservationTable({ reservations }: { reservations: Reservation[] }) {
  const navigate = useNavigate();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table highlightOnHover verticalSpacing="sm" aria-label="予約一覧">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">日時</Table.Th>
            <Table.Th scope="col">お客様</Table.Th>
            <Table.Th scope="col">メニュー</Table.Th>
            <Table.Th scope="col">担当</Table.Th>
            <Table.Th scope="col">ステータス</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reservations.map((reservation) => (
            <ReservationRow key={reservation.reservation_number} reservation={reservation} navigate={navigate} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * `navigate` comes from the table, so that the rows read none of the router's contexts: a change of those renders
 * every reader again, memo or not.
 */
const ReservationRow = memo(function ReservationRow({
  reservation,
  navigate,
}: {
  reservation: Reservation;
  navigate: NavigateFunction;
}) {
  const path = detailPath(reservation);
  return (
    <tr
      className={ROW_CLASS}
      data-with-row-border
      data-hover
      style={{ cursor: 'pointer' }}
      onClick={() => void navigate(path)}
    >
      <td className={CELL_CLASS}>
        {/* The link is the keyboard's and screen reader's way in; the whole row is the pointer's. */}
        <a
          className={LINK_CLASS}
          data-underline="hover"
          href={path}
          onClick={(event) => {
            event.stopPropagation();
            openInApp(event, navigate, path);
          }}
        >
          {formatDateTimeRangeJa(reservation.start_time, reservation.end_time)}
        </a>
      </td>
      <td className={CELL_CLASS}>
        {reservation.customer_name} 様
        <ReservationIncidentBadge reservation={reservation} />
      </td>
      <td className={CELL_CLASS}>{reservation.service_name}</td>
      <td className={CELL_CLASS}>{reservation.staff_name}</td>
      <td className={CELL_CLASS}>
        <ReservationStatusWithPending reservation={reservation} />
      </td>
    </tr>
  );
});

function ReservationCards({ reservations }: { reservations: Reservation[] }) {
  const navigate = useNavigate();
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="予約一覧">
      {reservations.map((reservation) => (
        <ReservationCard key={reservation.reservation_number} reservation={reservation} navigate={navigate} />
      ))}
    </Stack>
  );
}

const ReservationCard = memo(function ReservationCard({
  reservation,
  navigate,
}: {
  reservation: Reservation;
  navigate: NavigateFunction;
}) {
  const path = detailPath(reservation);
  return (
    <li>
      <Card
        component="a"
        href={path}
        onClick={(event: MouseEvent<HTMLAnchorElement>) => openInApp(event, navigate, path)}
        withBorder
        radius="md"
        padding="md"
      >
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2}>
            <Text fw={700}>{formatDateTimeRangeJa(reservation.start_time, reservation.end_time)}</Text>
            <Text>{reservation.customer_name} 様</Text>
            <ReservationIncidentBadge reservation={reservation} />
            <Text size="sm" c="dimmed">
              {reservation.service_name}・担当 {reservation.staff_name}
            </Text>
          </Stack>
          <ReservationStatusWithPending reservation={reservation} />
        </Group>
      </Card>
    </li>
  );
});
