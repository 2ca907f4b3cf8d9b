import { Box, Text, UnstyledButton } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { showNotification } from '#src/lib/notify';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { DayBoard, DayBoardColumn } from '#src/shared/schemas/day-board';
import {
  boardRows,
  isTaken,
  isWorkingAt,
  minuteOfDay,
  placeBookings,
  timeOfMinute,
  type BoardBooking,
  type BoardRows,
} from './board-layout';
import { BookingBlock } from './board-block';
import { useBlockDrag, type DropTarget } from './board-drag';

/** An empty working cell, as the booking dialog is to be opened with it (docs/screens.md#admin-day-board). */
export interface EmptyCell {
  staffId: number;
  date: string;
  /** `HH:mm` */
  time: string;
}

export interface MoveRequest {
  booking: BoardBooking;
  fromStaffId: number;
  staffId: number;
  time: string;
}

interface DayBoardGridProps {
  board: DayBoard;
  /** The columns shown: all on a tablet, the chosen one on a phone. */
  columns: DayBoardColumn[];
  /** Now (`yyyy-MM-ddTHH:mm:ss`, this device's clock): the now-line on today, and no new booking in the past. */
  now: string;
  /** Blocks may be dragged (online, and only pending or confirmed bookings). */
  canMove: boolean;
  /** Empty working cells are buttons (online: a booking needs the server). */
  canBook: boolean;
  highlighted?: string | null;
  onEmptyCellTap(cell: EmptyCell): void;
  onMoveRequest(move: MoveRequest): void;
}

const ROW_HEIGHT = 48;
const PAST_DROP = '過去の日時には移動できません。';
const TIME_AXIS_WIDTH = 56;
const HEADER_HEIGHT = 40;
const movable = new Set<string>(ACTIVE_RESERVATION_STATUSES);

/** The day as a grid: a time axis, one column per staff member, blocks over the cells, and the now-line on today. */
export function DayBoardGrid(props: DayBoardGridProps) {
  const { board, columns, now } = props;
  const rows = boardRows(board);
  const container = useRef<HTMLDivElement>(null);
  const pxPerMinute = ROW_HEIGHT / rows.grid;
  const nowMinute = now.slice(0, 10) === board.date ? minuteOfDay(now, board.date) : null;
  const lastMinute = rows.first + rows.starts.length * rows.grid;
  const nowTop =
    nowMinute !== null && nowMinute >= rows.first && nowMinute < lastMinute
      ? (nowMinute - rows.first) * pxPerMinute
      : null;
  const drag = useBlockDrag({
    enabled: props.canMove,
    rows,
    rowHeight: ROW_HEIGHT,
    container,
    onDrop: (booking, fromStaffId, target: DropTarget) => {
      const time = timeOfMinute(target.minute);
      if (target.staffId === fromStaffId && time === booking.start_time.slice(11, 16)) return;
      // 日時を変更 offers no past time either; the server would refuse it.
      if (`${board.date}T${time}` < now.slice(0, 16)) {
        showNotification({ color: 'red', title: PAST_DROP, message: `${board.date} ${time}` });
        return;
      }
      props.onMoveRequest({ booking, fromStaffId, staffId: target.staffId, time });
    },
  });
  const bodyHeight = rows.starts.length * ROW_HEIGHT;
  // Today opens at the now-line (an hour above it in view), not at the day's first row.
  const opensAt = nowTop === null ? 0 : Math.max(0, nowTop - ROW_HEIGHT * (60 / rows.grid));
  const showsHighlighted = board.staff.some((column) =>
    column.reservations.some((booking) => booking.reservation_number === props.highlighted),
  );
  useEffect(() => {
    // A block found by the search scrolls itself into view (board-block.tsx).
    if (!showsHighlighted) container.current?.scrollTo?.({ top: opensAt });
    // Once per day shown: the line moving each minute must not pull the board back while someone scrolls it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [board.date]);

  return (
    <Box
      ref={container}
      role="region"
      aria-label="予約台帳"
      style={{
        overflow: 'auto',
        maxHeight: 'max(360px, calc(100dvh - 260px))',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: `${TIME_AXIS_WIDTH}px repeat(${columns.length}, minmax(168px, 1fr))`,
          gridTemplateRows: `${HEADER_HEIGHT}px ${bodyHeight}px`,
        }}
      >
        <div style={{ ...stickyHeader, left: 0, zIndex: 4 }} />
        {columns.map((column) => (
          <div key={column.id} style={{ ...stickyHeader, zIndex: 3 }}>
            <Text fw={700} size="sm" truncate>
              {column.name}
            </Text>
          </div>
        ))}
        <TimeAxis rows={rows} nowTop={nowTop} />
        {columns.map((column) => (
          <ColumnBody
            key={column.id}
            {...props}
            column={column}
            rows={rows}
            nowTop={nowTop}
            drag={drag}
            pxPerMinute={pxPerMinute}
          />
        ))}
      </div>
    </Box>
  );
}

const stickyHeader = {
  position: 'sticky',
  top: 0,
  display: 'flex',
  alignItems: 'center',
  padding: '0 8px',
  background: 'var(--mantine-color-body)',
  borderBottom: '1px solid var(--mantine-color-default-border)',
  borderLeft: '1px solid var(--mantine-color-default-border)',
} as const;

function TimeAxis({ rows, nowTop }: { rows: BoardRows; nowTop: number | null }) {
  return (
    <div style={{ position: 'sticky', left: 0, zIndex: 2, background: 'var(--mantine-color-body)' }}>
      {rows.starts.map((minute) => (
        <Text key={minute} size="xs" c="dimmed" ta="right" pr={6} style={{ height: ROW_HEIGHT, lineHeight: '18px' }}>
          {minute % 60 === 0 || rows.grid >= 60 ? timeOfMinute(minute) : `:${timeOfMinute(minute).slice(3)}`}
        </Text>
      ))}
      {nowTop !== null && <NowLine top={nowTop} />}
    </div>
  );
}

function NowLine({ top }: { top: number }) {
  return (
    <div
      data-now-line
      aria-hidden
      style={{
        position: 'absolute',
        left: 0,
        right: 0,
        top,
        height: 2,
        background: 'var(--mantine-color-red-6)',
        zIndex: 2,
        pointerEvents: 'none',
      }}
    />
  );
}

type ColumnBodyProps = DayBoardGridProps & {
  column: DayBoardColumn;
  rows: BoardRows;
  nowTop: number | null;
  pxPerMinute: number;
  drag: ReturnType<typeof useBlockDrag>;
};

function ColumnBody({
  board,
  column,
  rows,
  nowTop,
  pxPerMinute,
  drag,
  now,
  onEmptyCellTap,
  highlighted,
  canMove,
  canBook,
}: ColumnBodyProps) {
  const target = drag.dragging?.target;
  const nowMinute =
    now.slice(0, 10) === board.date ? minuteOfDay(now, board.date) : now.slice(0, 10) < board.date ? -1 : Infinity;
  return (
    <div
      data-board-column={column.id}
      aria-label={`${column.name}の予約`}
      role="group"
      style={{ position: 'relative', borderLeft: '1px solid var(--mantine-color-default-border)' }}
    >
      {rows.starts.map((minute) => {
        const time = timeOfMinute(minute);
        const working = isWorkingAt(column, minute);
        const bookable =
          canBook && working && !isTaken(column, board.date, minute, rows.grid) && minute + rows.grid > nowMinute;
        const dropHere = target?.staffId === column.id && target.minute === minute;
        const style = {
          display: 'block',
          width: '100%',
          height: ROW_HEIGHT,
          borderBottom: `1px ${(minute + rows.grid) % 60 === 0 ? 'solid' : 'dashed'} var(--mantine-color-default-border)`,
          background: dropHere
            ? 'var(--mantine-color-blue-light)'
            : working
              ? undefined
              : 'repeating-linear-gradient(135deg, var(--mantine-color-gray-1), var(--mantine-color-gray-1) 6px, var(--mantine-color-gray-2) 6px, var(--mantine-color-gray-2) 12px)',
        };
        return bookable ? (
          <UnstyledButton
            key={minute}
            data-board-cell={time}
            aria-label={`${column.name} ${time} 空き`}
            style={style}
            onClick={() => onEmptyCellTap({ staffId: column.id, date: board.date, time })}
          />
        ) : (
          <div key={minute} data-board-cell={time} data-working={working || undefined} style={style} />
        );
      })}
      {placeBookings(column, board.date, rows).map((placed) => (
        <BookingBlock
          key={placed.booking.reservation_number}
          placed={placed}
          pxPerMinute={pxPerMinute}
          highlighted={highlighted === placed.booking.reservation_number}
          dragging={drag.dragging?.number === placed.booking.reservation_number}
          handlers={
            canMove && movable.has(placed.booking.status) ? drag.handlers(placed.booking, column.id) : undefined
          }
        />
      ))}
      {nowTop !== null && <NowLine top={nowTop} />}
    </div>
  );
}
