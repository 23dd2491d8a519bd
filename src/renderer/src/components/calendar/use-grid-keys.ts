/**
 * Keyboard use of the calendar: ↑/↓ or j/k move the focused row, Home/End, Enter opens its
 * detail, w watches it, / jumps to the filter, Escape closes the detail and gives focus back
 * to the grid.
 */
import { useCallback, useEffect, useState, type KeyboardEvent, type RefObject } from 'react';
import type { Item } from '../../lib/items.js';
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
  detailOpen: boolean;
  closeDetail: () => void;
}) {
  const { items, scroller, scrollTop, scrollToIndex, open, toggleWatch, detailOpen, closeDetail } =
    opts;
  // The focused row by its key, not its index: rows updating at a print (a row moved, one
  // added above) must not move the selection to another release.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const focus = focusKey === null ? -1 : items.findIndex((i) => i.key === focusKey);
  const setFocus = useCallback(
    (index: number) =>
      setFocusKey(items[index]?.kind === 'row' ? (items[index]?.key ?? null) : null),
    [items],
  );

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

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const start = focus < 0 ? Math.floor(scrollTop / ROW_HEIGHT) - 1 : focus;
    const focused = items[focus];
    if (e.key === 'ArrowDown' || e.key === 'j') {
      e.preventDefault();
      moveTo(rowIdx(start, 1));
    } else if (e.key === 'ArrowUp' || e.key === 'k') {
      e.preventDefault();
      moveTo(rowIdx(start, -1));
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
