/** Moving through time: Today, Tomorrow, This week, Next week, a date picker; the zone shown. */
import type { EventDate } from '../../../../shared/domain.js';
import { download, toCsv, toIcs } from '../../lib/export.js';
import { dayKey, rowDayKey, startOfDay, zoneLabel } from '../../lib/time.js';
import { useNow } from '../../lib/use-now.js';

/** YYYY-MM-DD plus `n` days (calendar arithmetic on the date, no zone involved). */
function addDays(key: string, n: number): string {
  return new Date(Date.parse(`${key}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The Monday starting the ISO week of a day. */
function mondayOf(key: string): string {
  const wd = (new Date(`${key}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(key, -wd);
}

/** The rows of the week (Monday to Sunday, local days) that holds `day`. */
export function weekRows(rows: readonly EventDate[], day: string, zone: string): EventDate[] {
  const from = mondayOf(day);
  const to = addDays(from, 7);
  return rows.filter((r) => {
    const k = rowDayKey(r, zone);
    return k >= from && k < to;
  });
}

export function TimeNav(props: {
  zone: string;
  /** The local day at the top of the list. */
  viewDay: string | null;
  rows: readonly EventDate[];
  onJump: (day: string | null, anchorMs: number | null) => void;
}) {
  const { zone, viewDay, rows, onJump } = props;
  // its own clock: "today" and the zone's abbreviation change rarely, the grid need not re-render
  const now = useNow(60_000);
  const today = dayKey(new Date(now).toISOString(), zone);
  const go = (day: string) => onJump(day, startOfDay(day, zone));
  const week = viewDay ?? today;
  const exportWeek = (kind: 'ics' | 'csv') => {
    const list = weekRows(rows, week, zone);
    const name = `macrobell-week-${mondayOf(week)}`;
    if (kind === 'ics') download(`${name}.ics`, 'text/calendar', toIcs(list, Date.now()));
    else download(`${name}.csv`, 'text/csv', toCsv(list));
  };
  return (
    <div className="time-nav" role="toolbar" aria-label="Move through time">
      <button type="button" className="chip" onClick={() => onJump(today, null)}>
        Today
      </button>
      <button type="button" className="chip" onClick={() => go(addDays(today, 1))}>
        Tomorrow
      </button>
      <button type="button" className="chip" onClick={() => go(mondayOf(today))}>
        This week
      </button>
      <button type="button" className="chip" onClick={() => go(addDays(mondayOf(today), 7))}>
        Next week
      </button>
      <label className="date-pick">
        <span className="sr-only">Go to date</span>
        <input
          type="date"
          value={viewDay ?? today}
          onChange={(e) => {
            if (/^\d{4}-\d{2}-\d{2}$/.test(e.target.value)) go(e.target.value);
          }}
        />
      </label>
      <span
        className="zone"
        data-testid="zone-label"
        title="Times are shown in this zone (Settings)"
      >
        Times: {zoneLabel(zone, now)}
      </span>
      <span className="export" role="group" aria-label={`Export the week of ${mondayOf(week)}`}>
        <button type="button" className="chip" onClick={() => exportWeek('ics')}>
          Week .ics
        </button>
        <button type="button" className="chip" onClick={() => exportWeek('csv')}>
          Week .csv
        </button>
      </span>
    </div>
  );
}
