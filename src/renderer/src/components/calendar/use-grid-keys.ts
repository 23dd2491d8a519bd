/**
 * Keyboard use of the calendar: ↑/↓ or j/k move the focused row, PageUp/PageDown by a
 * screenful, Home/End, Enter opens its detail, w watches it, / jumps to the filter, Escape
 * closes the detail and gives focus back to the grid.
 */
import { useEffect, type KeyboardEvent, type RefObject } from 'react';
import type { Item } from '../../lib/items.js';
import { useFocusedRow } from './use-focused-row.js';
import { ROW_HEIGHT } from './use-row-window.js';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA');
}

export function useGridKeys(opts: {
  items: Item[];
  scroller: RefObject<HTMLDivElement | null>;
  scrollTop: number;
  scrollToIndex: (i: number, align: 'nearest') => void;
  open: (eventId: string) => void;
  toggleWatch: (eventId: string) => void;
  /** The event whose detail is open, or null. */
  openEventId: string | null;
  closeDetail: () => void;
}) {
  const { items, scroller, scrollTop, scrollToIndex, open, toggleWatch, closeDetail } = opts;
  const detailOpen = opts.openEventId !== null;
  const { focus, setFocus } = useFocusedRow(items, opts.openEventId, scrollToIndex);

  // '/' from anywhere on the screen; Escape wherever focus is (the grid or the detail)
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === '/' && !isTyping(e.target)) {
        e.preventDefault();
        document.getElementById('calendar-text-filter')?.focus();
      } else if (e.key === 'Escape' && detailOpen) {
        e.preventDefault();
        closeDetail();
        scroller.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [detailOpen, closeDetail, scroller]);

  const rowIdx = (from: number, dir: 1 | -1) => {
    for (let i = from + dir; i >= 0 && i < items.length; i += dir)
      if (items[i]?.kind === 'row') return i;
    return from;
  };
  const moveTo = (next: number) => {
    setFocus(next);
    scrollToIndex(next, 'nearest');
  };

  /** The release row a page (a screenful less the header) below or above `from`. */
  const pageIdx = (from: number, dir: 1 | -1) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight || 600) / ROW_HEIGHT) - 1);
    const to = Math.max(-1, Math.min(items.length, from + dir * page));
    // onto a day header or the now line: the next release on, else the last one before it
    const onward = rowIdx(to - dir, dir);
    return onward !== to - dir ? onward : rowIdx(to, -dir as 1 | -1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const start = focus < 0 ? Math.floor(scrollTop / ROW_HEIGHT) - 1 : focus;
    const focused = items[focus];
    if (e.key === 'ArrowDown' || e.key === 'j') {
      e.preventDefault();
      moveTo(rowIdx(start, 1));
    } else if (e.key === 'ArrowUp' || e.key === 'k') {
      e.preventDefault();
      moveTo(rowIdx(start, -1));
    } else if (e.key === 'PageDown' || e.key === 'PageUp') {
      e.preventDefault();
      moveTo(pageIdx(start, e.key === 'PageDown' ? 1 : -1));
    } else if (e.key === 'Home') {
      e.preventDefault();
      moveTo(rowIdx(-1, 1));
    } else if (e.key === 'End') {
      e.preventDefault();
      moveTo(rowIdx(items.length, -1));
    } else if (e.key === 'Enter' && focused?.kind === 'row') {
      e.preventDefault();
      open(focused.ed.eventId);
    } else if (e.key === 'w' && focused?.kind === 'row') {
      e.preventDefault();
      toggleWatch(focused.ed.eventId);
    }
  };
  return { focus, setFocus, onKeyDown };
}
