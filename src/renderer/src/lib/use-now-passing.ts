import { useEffect, useMemo, useRef, useState } from 'react';

/** How many of `sorted` (ascending epoch ms) lie strictly before `t`. */
export function countBefore(sorted: Float64Array, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The instants of `isoTimes`, sorted, for `useNowPassing` (built once per data change). */
export function useSortedTimes(items: readonly { dateUtc: string }[]): Float64Array {
  return useMemo(() => Float64Array.from(items, (r) => Date.parse(r.dateUtc)).sort(), [items]);
}

/**
 * The current time for a view that changes only when the clock passes one of its own
 * moments (the calendar's now line and its "past" rows move only when a release time goes
 * by). The clock is read every `ms`, but the view re-renders only when a moment was passed,
 * not on every tick: a 2,000-row grid is not rebuilt every few seconds for nothing.
 */
export function useNowPassing(
  sorted: Float64Array,
  ms = 5000,
  /** Also re-render when this changes (the local day: a quiet day's "today" moves at midnight). */
  dayOf?: (t: number) => string,
): number {
  const [now, setNow] = useState(() => Date.now());
  const shown = useRef(now);
  shown.current = now;
  useEffect(() => {
    const check = () => {
      const t = Date.now();
      if (
        countBefore(sorted, t) !== countBefore(sorted, shown.current) ||
        (dayOf !== undefined && dayOf(t) !== dayOf(shown.current))
      )
        setNow(t);
    };
    // new moments (new rows) may already lie behind the time last shown
    check();
    const timer = setInterval(check, ms);
    return () => clearInterval(timer);
  }, [sorted, ms, dayOf]);
  return now;
}
