import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '#src/lib/paths';
import { bookingLabel, STATUS_COLORS, type PlacedBooking } from './board-layout';
import type { useBlockDrag } from './board-drag';

interface BookingBlockProps {
  placed: PlacedBooking;
  pxPerMinute: number;
  highlighted: boolean;
  dragging: boolean;
  handlers?: ReturnType<ReturnType<typeof useBlockDrag>['handlers']>;
}

/** One booking on the board: a link to its reservation, readable by its label, draggable when it may be moved. */
export function BookingBlock({ placed, pxPerMinute, highlighted, dragging, handlers }: BookingBlockProps) {
  const { booking } = placed;
  const color = STATUS_COLORS[booking.status];
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (!highlighted) return;
    ref.current?.scrollIntoView?.({ block: 'center', inline: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [highlighted]);
  return (
    <Link
      ref={ref}
      to={paths.adminReservation(booking.reservation_number)}
      aria-label={bookingLabel(booking)}
      draggable={false}
      data-board-block
      {...handlers}
      style={{
        position: 'absolute',
        top: placed.top * pxPerMinute + 1,
        height: placed.height * pxPerMinute - 2,
        left: `calc(${(placed.lane / placed.lanes) * 100}% + 2px)`,
        width: `calc(${100 / placed.lanes}% - 4px)`,
        overflow: 'hidden',
        padding: '2px 6px',
        borderRadius: 'var(--mantine-radius-sm)',
        borderLeft: `4px solid var(--mantine-color-${color}-6)`,
        background: `var(--mantine-color-${color}-light)`,
        color: 'var(--mantine-color-text)',
        textDecoration: 'none',
        fontSize: 'var(--mantine-font-size-xs)',
        lineHeight: 1.35,
        zIndex: 1,
        opacity: dragging ? 0.6 : 1,
        outline: highlighted ? '3px solid var(--mantine-color-orange-6)' : undefined,
        touchAction: handlers ? 'manipulation' : undefined,
        userSelect: 'none',
        WebkitTouchCallout: 'none',
        cursor: handlers ? 'grab' : 'pointer',
      }}
    >
      <span aria-hidden>
        <b>
          {booking.start_time.slice(11, 16)} {booking.customer_name} 様
        </b>
        {booking.is_nominated && <NominationMark />}
        <br />
        {booking.service_name}
        {booking.option_names.length > 0 && `＋${booking.option_names.join('、')}`}
      </span>
    </Link>
  );
}

function NominationMark() {
  return (
    <span
      style={{
        marginLeft: 4,
        padding: '0 4px',
        borderRadius: 4,
        background: 'var(--mantine-color-pink-6)',
        color: 'white',
        fontWeight: 700,
      }}
    >
      指名
    </span>
  );
}
