import { useEffect, useRef, useState, type MouseEvent, type PointerEvent, type RefObject } from 'react';
import type { BoardBooking, BoardRows } from './board-layout';

/** Where a dragged block would start: a column (staff id) and a row's minute. */
export interface DropTarget {
  staffId: number;
  minute: number;
}

interface DragState {
  pointerId: number;
  element: HTMLElement;
  booking: BoardBooking;
  fromStaffId: number;
  x: number;
  y: number;
  /** Pointer to the block's top edge: the block keeps its place under the finger. */
  grabOffset: number;
  active: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/** A mouse drags once it has moved this far; a finger after holding still this long (a swipe scrolls instead). */
const MOUSE_THRESHOLD_PX = 6;
const TOUCH_HOLD_MS = 350;
const TOUCH_SLOP_PX = 10;

interface UseBlockDragOptions {
  enabled: boolean;
  rows: BoardRows;
  rowHeight: number;
  container: RefObject<HTMLElement | null>;
  onDrop(booking: BoardBooking, fromStaffId: number, target: DropTarget): void;
}

/**
 * Moving a booking's block with pointer events (mouse, pen and touch alike, docs/screens.md#admin-day-board). The
 * column under the pointer is found with elementFromPoint and `data-board-column`, the row from the height; while a
 * finger drags, the page does not scroll (a non-passive touchmove listener: React's are passive). A drag never
 * follows its link; a plain tap or click does.
 */
export function useBlockDrag({ enabled, rows, rowHeight, container, onDrop }: UseBlockDragOptions) {
  const state = useRef<DragState | null>(null);
  const suppressClick = useRef(false);
  const [dragging, setDragging] = useState<{ number: string; target: DropTarget | null } | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const stopScroll = (event: TouchEvent) => {
      if (state.current?.active && event.cancelable) event.preventDefault();
    };
    element.addEventListener('touchmove', stopScroll, { passive: false });
    return () => element.removeEventListener('touchmove', stopScroll);
  }, [container]);

  const targetAt = (x: number, y: number, grabOffset: number): DropTarget | null => {
    const column = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-board-column]');
    if (!column) return null;
    const index = Math.round((y - grabOffset - column.getBoundingClientRect().top) / rowHeight);
    const minute = rows.starts[Math.max(0, Math.min(rows.starts.length - 1, index))];
    return minute === undefined ? null : { staffId: Number(column.dataset.boardColumn), minute };
  };

  const reset = () => {
    if (state.current?.timer) clearTimeout(state.current.timer);
    state.current = null;
    setDragging(null);
  };

  const activate = (drag: DragState) => {
    drag.active = true;
    try {
      drag.element.setPointerCapture(drag.pointerId);
    } catch {
      // The pointer is already gone: the next event ends the drag.
    }
    setDragging({ number: drag.booking.reservation_number, target: null });
  };

  const handlers = (booking: BoardBooking, fromStaffId: number) => ({
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      if (!enabled || event.button !== 0) return;
      const element = event.currentTarget;
      const drag: DragState = {
        pointerId: event.pointerId,
        element,
        booking,
        fromStaffId,
        x: event.clientX,
        y: event.clientY,
        grabOffset: event.clientY - element.getBoundingClientRect().top,
        active: false,
      };
      if (event.pointerType !== 'mouse') drag.timer = setTimeout(() => activate(drag), TOUCH_HOLD_MS);
      state.current = drag;
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      const drag = state.current;
      if (!drag || drag.pointerId !== event.pointerId) return;
      const distance = Math.hypot(event.clientX - drag.x, event.clientY - drag.y);
      if (!drag.active) {
        if (event.pointerType === 'mouse' && distance >= MOUSE_THRESHOLD_PX) activate(drag);
        else if (event.pointerType !== 'mouse' && distance > TOUCH_SLOP_PX) reset();
        return;
      }
      setDragging({
        number: drag.booking.reservation_number,
        target: targetAt(event.clientX, event.clientY, drag.grabOffset),
      });
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      const drag = state.current;
      if (!drag || drag.pointerId !== event.pointerId) return;
      if (drag.active) {
        // The click that follows this pointerup (if any) must not open the reservation; none may follow (touch).
        suppressClick.current = true;
        setTimeout(() => (suppressClick.current = false), 0);
        const target = targetAt(event.clientX, event.clientY, drag.grabOffset);
        if (target) onDrop(drag.booking, drag.fromStaffId, target);
      }
      reset();
    },
    onPointerCancel: reset,
    onClick: (event: MouseEvent<HTMLElement>) => {
      if (!suppressClick.current) return;
      suppressClick.current = false;
      event.preventDefault();
    },
    // A long press on a link opens the browser's menu; on the board it starts a drag instead.
    onContextMenu: (event: MouseEvent<HTMLElement>) => {
      if (enabled) event.preventDefault();
    },
    onDragStart: (event: MouseEvent<HTMLElement>) => event.preventDefault(),
  });

  return { handlers, dragging };
}
