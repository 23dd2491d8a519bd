/** Notifications: the alert sound per impact level and, in web mode, the browser's notifications. */
import { useState } from 'react';
import { SOUND_LEVELS, type SoundLevel } from '../../../../shared/domain.js';
import {
  browserPermission,
  requestBrowserPermission,
  type BrowserPermission,
} from '../../lib/browser-notifications.js';
import { useApp, useStores } from '../../state/index.js';
import { TestAlert } from './TestAlert.js';

const LEVEL_LABEL: Record<SoundLevel, string> = {
  HIGH: 'High impact',
  MEDIUM: 'Medium impact and news',
  LOW: 'Low impact',
};

function BrowserNotifications() {
  const enabled = useApp((s) => s.settings?.browserNotifications ?? false);
  const update = useApp((s) => s.updateSettings);
  const [permission, setPermission] = useState<BrowserPermission>(browserPermission);
  if (permission === 'unsupported')
    return <p className="muted">This browser cannot show notifications; the toasts still do.</p>;
  if (permission === 'denied')
    return (
      <p className="muted" data-testid="browser-notifications-denied">
        This browser blocks notifications from Macrobell. Allow them in the site settings (the icon
        left of the address), then reload the page.
      </p>
    );
  if (permission === 'default')
    return (
      <button
        type="button"
        onClick={async () => {
          const answer = await requestBrowserPermission();
          setPermission(answer);
          if (answer === 'granted') await update({ browserNotifications: true });
        }}
      >
        Allow browser notifications
      </button>
    );
  return (
    <label className="inline">
      <input
        type="checkbox"
        checked={enabled}
        onChange={(e) => void update({ browserNotifications: e.target.checked })}
      />{' '}
      Browser notifications while this tab is in the background
    </label>
  );
}

export function NotificationsCard() {
  const { bridge, toasts } = useStores();
  const sounds = useApp((s) => s.settings?.sounds);
  const update = useApp((s) => s.updateSettings);
  if (!sounds) return null;
  return (
    <section className="card" aria-labelledby="notify-h">
      <h2 id="notify-h">Notifications</h2>
      <TestAlert />
      <fieldset>
        <legend>Alert sound</legend>
        {SOUND_LEVELS.map((level) => (
          <div key={level} className="sound-row">
            <label className="inline">
              <input
                type="checkbox"
                checked={sounds[level]}
                onChange={(e) => void update({ sounds: { ...sounds, [level]: e.target.checked } })}
              />{' '}
              {LEVEL_LABEL[level]}
            </label>
            <button
              type="button"
              className="icon-button"
              aria-label={`Play the ${LEVEL_LABEL[level].toLowerCase()} sound`}
              onClick={() => toasts.getState().preview(level)}
            >
              ▶
            </button>
          </div>
        ))}
        <p className="muted">Quiet hours mute every sound; the toast still shows.</p>
      </fieldset>
      {bridge.kind === 'http' && (
        <fieldset>
          <legend>Browser</legend>
          <BrowserNotifications />
        </fieldset>
      )}
    </section>
  );
}
