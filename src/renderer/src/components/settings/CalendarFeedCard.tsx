/**
 * Settings → Calendar feed (desk mode): the user's webcal URL of their watched events,
 * served by the desk relay, with Copy and Rotate; and whether the watch list reached the
 * relay. Outside desk mode, one line saying where the feed comes from.
 */
import { useCallback, useEffect, useState } from 'react';
import type { CalendarFeedInfo } from '../../../../shared/calendar-feed.js';
import { timeLabel } from '../../lib/time.js';
import { useApp, useStores } from '../../state/index.js';

function WatchlistLine({ info }: { info: Extract<CalendarFeedInfo, { desk: true }> }) {
  const settings = useApp((s) => s.settings);
  const time = (ms: number) =>
    timeLabel(
      new Date(ms).toISOString(),
      settings?.timeZone ?? 'system',
      settings?.hourCycle ?? 'h23',
    );
  const w = info.watchlist;
  if (w.error) return <p className="error">Watch list not on the relay yet: {w.error}</p>;
  if (w.pending) return <p className="muted">Sending your watch list to the relay…</p>;
  return (
    <p className="muted">
      {w.count} watched {w.count === 1 ? 'event' : 'events'} in the feed
      {w.syncedAt !== null ? ` (sent ${time(w.syncedAt)})` : ''}. Watch events with the bell in the
      calendar.
    </p>
  );
}

type DeskFeed = Extract<CalendarFeedInfo, { desk: true }>;

/** The feed's state from the core, read again when the connection, relay or watch list change. */
function useFeedInfo(setMessage: (m: string) => void) {
  const { bridge } = useStores();
  const connection = useApp((s) => s.settings?.connection);
  const relayUrl = useApp((s) => s.settings?.relayUrl);
  const watched = useApp((s) => s.settings?.alertRules.watchedEventIds.length);
  const [info, setInfo] = useState<CalendarFeedInfo | null>(null);
  const load = useCallback(
    () => bridge.api.getCalendarFeed().then(setInfo, (err: Error) => setMessage(err.message)),
    [bridge, setMessage],
  );
  useEffect(() => {
    void load();
  }, [load, connection, relayUrl]);
  // A watch-list change is uploaded after a short pause: look again once it has gone.
  useEffect(() => {
    const t = setTimeout(() => void load(), 2_500);
    return () => clearTimeout(t);
  }, [load, watched]);
  return [info, setInfo] as const;
}

/** The URL with Copy, Copy https link and Rotate (after a confirmation: old subscriptions stop). */
function FeedUrl(props: {
  info: DeskFeed;
  setInfo: (i: CalendarFeedInfo) => void;
  setMessage: (m: string) => void;
}) {
  const { bridge } = useStores();
  const { info, setInfo, setMessage } = props;
  const [busy, setBusy] = useState(false);
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setMessage('Feed URL copied. Paste it into your calendar app as a subscription.');
    } catch {
      setMessage('Could not reach the clipboard: select the URL and copy it.');
    }
  };
  const rotate = async () => {
    if (
      !window.confirm(
        'Make a new feed URL? Calendars subscribed to the current one stop updating until you subscribe again.',
      )
    )
      return;
    setBusy(true);
    const next = await bridge.api.rotateCalendarFeed().catch((err: Error) => {
      setMessage(err.message);
      return null;
    });
    if (next) {
      setInfo(next);
      if (next.desk && next.url) setMessage('New feed URL made; the old one no longer works.');
    }
    setBusy(false);
  };
  if (!info.webcal) return <p className="error">No feed URL: {info.error}</p>;
  return (
    <>
      <label>
        Feed URL (keep it private: anyone with it can read your watched events)
        <input
          type="text"
          readOnly
          value={info.webcal}
          data-testid="calendar-feed-url"
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
      <div className="actions">
        <button type="button" className="primary" onClick={() => void copy(info.webcal as string)}>
          Copy
        </button>
        <button
          type="button"
          onClick={() => void copy(info.url as string)}
          title="For Google Calendar: Other calendars → From URL"
        >
          Copy https link
        </button>
        <button type="button" disabled={busy} onClick={() => void rotate()}>
          {busy ? 'Working…' : 'Rotate'}
        </button>
      </div>
    </>
  );
}

export function CalendarFeedCard() {
  const [message, setMessage] = useState<string | null>(null);
  const [info, setInfo] = useFeedInfo(setMessage);
  return (
    <section className="card" aria-labelledby="feed-h" data-testid="calendar-feed-card">
      <h2 id="feed-h">Calendar feed</h2>
      {info && !info.desk && <p className="muted">{info.message}</p>}
      {info?.desk && (
        <>
          <p>
            Subscribe in Outlook, Google or Apple Calendar: your watched events, kept up to date by
            the desk relay.
          </p>
          <FeedUrl info={info} setInfo={setInfo} setMessage={setMessage} />
          <WatchlistLine info={info} />
        </>
      )}
      {message && <p role="status">{message}</p>}
    </section>
  );
}
