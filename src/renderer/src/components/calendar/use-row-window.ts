/** The calendar's virtual scroll: which rows are in the DOM, and moving the view to a row. */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Item } from '../../lib/items.js';

export const ROW_HEIGHT = 38;
const OVERSCAN = 8;

/** Where the row at `index` sits in the grid's full height. */
export function rowPlacement(index: number) {
  return {
    position: 'absolute' as const,
    top: index * ROW_HEIGHT,
    height: ROW_HEIGHT,
    left: 0,
    right: 0,
  };
}

/**
 * `anchor(items, visibleRows)` is the index the view starts at: on the first rows, and again after every
 * fresh load (`generation`: a filter change, a jump to another week) — the list does not keep
 * a pixel offset that means nothing in the new rows.
 */
export function useRowWindow(
  items: Item[],
  anchor: (items: Item[], visibleRows: number) => number,
  generation: number,
) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight || 600));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Rows the grid shows at once (less the sticky header), for an anchor that keeps "now" in view.
  const visibleRows = () =>
    Math.max(1, Math.floor((scroller.current?.clientHeight || height) / ROW_HEIGHT) - 1);

  // Open on today the first time rows arrive. The position is worked out during that render,
  // so the first commit already holds the rows on screen (no second render after scrolling).
  const [opened, setOpened] = useState<number | null>(null);
  if (opened === null && items.length > 0) {
    setOpened(generation);
    setScrollTop(anchor(items, visibleRows()) * ROW_HEIGHT);
  }
  const applied = useRef(false);
  useLayoutEffect(() => {
    if (opened === null || applied.current || !scroller.current) return;
    applied.current = true;
    if (scrollTop <= 0) return;
    const el = scroller.current;
    el.scrollTop = scrollTop;
    // near the end of the list the browser clamps the position: follow it before the paint
    if (el.scrollTop !== scrollTop) setScrollTop(el.scrollTop);
  }, [opened, scrollTop]);

  const scrollToIndex = useCallback((index: number, align: 'top' | 'nearest' = 'top') => {
    const el = scroller.current;
    if (!el) return;
    const top = index * ROW_HEIGHT;
    let next = el.scrollTop;
    if (align === 'top') next = top;
    else if (top < el.scrollTop + ROW_HEIGHT) next = Math.max(0, top - ROW_HEIGHT);
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight)
      next = top + 2 * ROW_HEIGHT - el.clientHeight;
    el.scrollTop = next;
    setScrollTop(el.scrollTop);
  }, []);

  // A later load (new filters, another week): back to the anchor, not the old pixel offset.
  const anchorRef = useRef(anchor);
  anchorRef.current = anchor;
  useLayoutEffect(() => {
    if (opened === null || generation === opened) return;
    scrollToIndex(anchorRef.current(items, visibleRows()));
    // only when a load lands, not on every pushed row
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generation]);

  // The first screenful is painted without overscan (the rows above and below the viewport
  // would add ~40% to the first layout); they follow once that frame is on screen.
  const [overscan, setOverscan] = useState(0);
  useEffect(() => {
    if (opened === null || overscan) return;
    let t: ReturnType<typeof setTimeout> | undefined;
    const raf = requestAnimationFrame(() => (t = setTimeout(() => setOverscan(OVERSCAN), 0)));
    return () => {
      cancelAnimationFrame(raf);
      clearTimeout(t);
    };
  }, [opened, overscan]);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + overscan);
  const onScroll = (e: { currentTarget: HTMLDivElement }) =>
    setScrollTop(e.currentTarget.scrollTop);
  return { scroller, scrollTop, first, last, onScroll, scrollToIndex };
}
