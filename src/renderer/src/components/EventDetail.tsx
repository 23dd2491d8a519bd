import { useEffect, useRef } from 'react';
import type { EventDate, EventDetail } from '../../../shared/domain.js';
import { Flag } from './Flag.js';
import { download, googleCalendarUrl, toIcs } from '../lib/export.js';
import { dateTimeLabel } from '../lib/time.js';
import { useCalendar, useStores } from '../state/index.js';
import { ValueCells } from './calendar/Cells.js';
import { useToggleWatch, useWatched } from './calendar/use-watch.js';
import { LatestPrint } from './detail/LatestPrint.js';
import { Surprises } from './detail/Surprises.js';
import { HistoryChart } from './HistoryChart.js';
import { EventContext } from './detail/EventContext.js';

function Occurrences({
  list,
  zone,
  hourCycle,
  label,
}: {
  list: EventDate[];
  zone: string;
  hourCycle: 'h12' | 'h23';
  label: string;
}) {
  if (list.length === 0) return null;
  return (
    <div className="occurrences" role="grid" aria-label={label}>
      <div role="row" className="occ-head">
        {['Date', 'Actual', 'Consensus', 'Previous'].map((h) => (
          <span key={h} role="columnheader" className={h === 'Date' ? undefined : 'num'}>
            {h}
          </span>
        ))}
      </div>
      {list.map((ed) => (
        <div role="row" key={ed.id} className="occ-row">
          <span role="gridcell">{dateTimeLabel(ed.dateUtc, zone, hourCycle)}</span>
          <ValueCells ed={ed} />
        </div>
      ))}
    </div>
  );
}

/** "Add to calendar": an .ics file for desktop calendars, or Google Calendar in the browser. */
function AddToCalendar({ ed }: { ed: EventDate }) {
  const { bridge } = useStores();
  const google = () => {
    const url = googleCalendarUrl(ed);
    if (bridge.kind === 'ipc') void bridge.api.openExternal({ url }).catch(() => undefined);
    else window.open(url, '_blank', 'noopener,noreferrer');
  };
  return (
    <p className="add-to-calendar">
      <button
        type="button"
        className="chip"
        onClick={() =>
          download(
            `${ed.countryCode}-${ed.name.replace(/[^\w]+/g, '-')}.ics`,
            'text/calendar',
            toIcs([ed], Date.now()),
          )
        }
      >
        Add next release to calendar (.ics)
      </button>
      <button type="button" className="chip" onClick={google}>
        Google Calendar
      </button>
    </p>
  );
}

/** The release dates ahead, and the last 12 printed. */
function ReleaseLists(props: {
  detail: EventDetail | null;
  zone: string;
  hourCycle: 'h12' | 'h23';
}) {
  const { detail, zone, hourCycle } = props;
  return (
    <>
      <h3>Upcoming</h3>
      {detail?.upcoming.length ? (
        <Occurrences
          list={detail.upcoming}
          zone={zone}
          hourCycle={hourCycle}
          label="Upcoming releases"
        />
      ) : (
        <p className="muted">None scheduled in the cache.</p>
      )}
      <h3>Past releases</h3>
      <Occurrences
        list={(detail?.history ?? []).slice(0, 12)}
        zone={zone}
        hourCycle={hourCycle}
        label="Past releases"
      />
    </>
  );
}

/**
 * The event's detail: a side panel in a wide window, a drawer over the grid in a narrow one
 * (CSS). It takes focus when it opens, so keyboard users land in it; Escape closes it.
 */
export function EventDetailPanel({
  eventId,
  onClose,
  zone,
  hourCycle,
}: {
  eventId: string;
  onClose: () => void;
  zone: string;
  hourCycle: 'h12' | 'h23';
}) {
  const { calendar } = useStores();
  const detail = useCalendar((s) => s.detail);
  const loading = useCalendar((s) => s.detailLoading);
  const rows = useCalendar((s) => s.rows);
  const watchedIds = useWatched();
  const toggleWatch = useToggleWatch();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    void calendar.getState().loadDetail(eventId);
    heading.current?.focus();
  }, [eventId, calendar]);
  const event = detail?.event;
  const sample = rows.find((r) => r.eventId === eventId);
  const name = event?.name ?? sample?.name ?? 'Event';
  const country = event?.countryCode ?? sample?.countryCode ?? '';
  const ready = detail !== null && (detail.event === null || detail.event.id === eventId);
  const next = detail?.upcoming[0] ?? sample;
  // the newest print (one a moment early is still among the upcoming dates)
  const latest = [...(detail?.upcoming ?? []), ...(detail?.history ?? [])]
    .filter((d) => d.actual !== null)
    .sort((a, b) => Date.parse(b.dateUtc) - Date.parse(a.dateUtc))[0];
  return (
    <aside
      className="detail-panel"
      aria-label={`${country} ${name} details`}
      data-testid="event-detail"
    >
      <header>
        <h2 tabIndex={-1} ref={heading}>
          <Flag code={country} />
          {country} {name}
        </h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Close details (Escape)"
          onClick={onClose}
        >
          ✕
        </button>
      </header>
      {loading && !ready && <p className="muted">Loading…</p>}
      {ready ? (
        <>
          <EventContext description={event?.description} />
          <label className="watch">
            <input
              type="checkbox"
              checked={watchedIds.includes(eventId)}
              onChange={(e) => void toggleWatch(eventId, e.target.checked)}
            />
            Alert me for this event (release, revisions, reminder before it prints)
          </label>
          {latest && <LatestPrint ed={latest} zone={zone} hourCycle={hourCycle} />}
          {next && <AddToCalendar ed={next} />}
          <h3>History</h3>
          <HistoryChart history={detail?.history ?? []} title={`${country} ${name}`} zone={zone} />
          <h3>Surprises</h3>
          <Surprises history={detail?.history ?? []} zone={zone} hourCycle={hourCycle} />
          <ReleaseLists detail={detail} zone={zone} hourCycle={hourCycle} />
        </>
      ) : null}
    </aside>
  );
}
