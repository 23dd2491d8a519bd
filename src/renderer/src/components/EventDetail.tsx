import { useEffect } from 'react';
import type { EventDate } from '../../../shared/domain.js';
import { Flag } from './Flag.js';
import { dateTimeLabel } from '../lib/time.js';
import { useCalendar, useStores } from '../state/index.js';
import { ValueCells } from './Calendar.js';
import { HistoryChart } from './HistoryChart.js';

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
  useEffect(() => {
    void calendar.getState().loadDetail(eventId);
  }, [eventId, calendar]);
  const event = detail?.event;
  const sample = rows.find((r) => r.eventId === eventId);
  const name = event?.name ?? sample?.name ?? 'Event';
  const country = event?.countryCode ?? sample?.countryCode ?? '';
  const ready = detail !== null && (detail.event === null || detail.event.id === eventId);
  return (
    <aside className="detail-panel" aria-label={`${country} ${name} details`}>
      <header>
        <h2>
          <Flag code={country} />
          {country} {name}
        </h2>
        <button type="button" className="icon-button" aria-label="Close details" onClick={onClose}>
          ✕
        </button>
      </header>
      {loading && !ready && <p className="muted">Loading…</p>}
      {ready ? (
        <>
          {event?.description && <p className="description">{event.description}</p>}
          <label className="watch">
            <input
              type="checkbox"
              checked={detail?.watched ?? false}
              onChange={(e) => void calendar.getState().setWatched(eventId, e.target.checked)}
            />
            Alert me for this event (release, revisions, reminder before it prints)
          </label>
          <h3>History</h3>
          <HistoryChart history={detail?.history ?? []} title={`${country} ${name}`} />
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
      ) : null}
    </aside>
  );
}
