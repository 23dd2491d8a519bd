/** The grid's active row (its aria-activedescendant), kept on one release as the list changes. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Item } from '../../lib/items.js';

export function useFocusedRow(
  items: Item[],
  /** The event whose detail is open, or null. */
  openEventId: string | null,
  scrollToIndex: (i: number, align: 'nearest') => void,
) {
  // Held by its key, not its index: the now line moving past a release (or a row arriving)
  // shifts the indexes, and the active row must stay the same release.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const focus = useMemo(
    () => (focusKey === null ? -1 : items.findIndex((it) => it.key === focusKey)),
    [items, focusKey],
  );
  const itemsNow = useRef(items);
  itemsNow.current = items;
  // stable, so the memoised rows that call it on a click do not re-render with each list
  const setFocus = useCallback(
    (index: number) => setFocusKey(itemsNow.current[index]?.key ?? null),
    [],
  );

  // The detail closed (Escape or ✕): the active row is a release on screen, the one focused
  // or else the one the detail showed (opened from an alert, the focus was on no row).
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const was = shown.current;
    shown.current = openEventId;
    if (was === null || openEventId !== null) return;
    const list = itemsNow.current;
    const at =
      list[focus]?.kind === 'row'
        ? focus
        : list.findIndex((it) => it.kind === 'row' && it.ed.eventId === was);
    if (at < 0) return;
    setFocus(at);
    scrollToIndex(at, 'nearest');
    // only when the detail opens or closes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openEventId]);

  return { focus, setFocus };
}
