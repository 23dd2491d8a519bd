/** The Settings screen: one card per concern, each in components/settings/. */
import { DataCard } from './settings/DataCard.js';
import { DisplayCard } from './settings/DisplayCard.js';
import { KeysCard } from './settings/KeysCard.js';
import { LiveUpdatesCard } from './settings/LiveUpdatesCard.js';
import { NotificationsCard } from './settings/NotificationsCard.js';

export function Settings() {
  return (
    <section className="settings-screen" aria-label="Settings">
      <header className="screen-header">
        <h1>Settings</h1>
      </header>
      <div className="settings-grid">
        <KeysCard />
        <LiveUpdatesCard />
        <DisplayCard />
        <NotificationsCard />
        <DataCard />
      </div>
    </section>
  );
}
