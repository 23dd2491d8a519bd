/** The Settings screen: one card per concern, each in components/settings/. */
import { useApp } from '../state/index.js';
import { CalendarFeedCard } from './settings/CalendarFeedCard.js';
import { ConnectionCard } from './settings/ConnectionCard.js';
import { DataCard } from './settings/DataCard.js';
import { DisplayCard } from './settings/DisplayCard.js';
import { KeysCard } from './settings/KeysCard.js';
import { LiveUpdatesCard } from './settings/LiveUpdatesCard.js';
import { NewsWindowCard } from './settings/NewsWindowCard.js';
import { NotificationsCard } from './settings/NotificationsCard.js';
import { SquawkCard } from './settings/SquawkCard.js';

export function Settings() {
  // Desk mode: no keys on this machine, and the Connection card holds the relay URL and token.
  const desk = useApp((s) => s.settings?.connection === 'desk');
  return (
    <section className="settings-screen" aria-label="Settings">
      <header className="screen-header">
        <h1>Settings</h1>
      </header>
      <div className="settings-grid">
        <ConnectionCard />
        {!desk && <KeysCard />}
        {!desk && <LiveUpdatesCard />}
        <CalendarFeedCard />
        <DisplayCard />
        <NotificationsCard />
        <NewsWindowCard />
        <SquawkCard />
        <DataCard />
      </div>
    </section>
  );
}
