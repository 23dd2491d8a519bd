/** Display: zone, clock, theme, news languages, remote images. */
import { zoneChoices } from '../../lib/time.js';
import { useApp } from '../../state/index.js';

const ZONES = zoneChoices();

export function DisplayCard() {
  const settings = useApp((s) => s.settings);
  const update = useApp((s) => s.updateSettings);
  if (!settings) return null;
  return (
    <section className="card" aria-labelledby="display-h">
      <h2 id="display-h">Display</h2>
      <label>
        Time zone
        <select
          value={settings.timeZone}
          onChange={(e) => void update({ timeZone: e.target.value })}
        >
          {ZONES.map((z) => (
            <option key={z} value={z}>
              {z === 'system' ? 'System time zone' : z}
            </option>
          ))}
        </select>
      </label>
      <label>
        Clock
        <select
          value={settings.hourCycle}
          onChange={(e) => void update({ hourCycle: e.target.value as 'h12' | 'h23' })}
        >
          <option value="h23">24-hour</option>
          <option value="h12">12-hour</option>
        </select>
      </label>
      <label>
        Theme
        <select
          value={settings.theme}
          onChange={(e) => void update({ theme: e.target.value as 'system' | 'light' | 'dark' })}
        >
          <option value="system">Follow the system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <label>
        News languages (comma-separated, e.g. en-US, de-DE)
        <input
          defaultValue={settings.cultures.join(', ')}
          onBlur={(e) => {
            const cultures = e.target.value
              .split(',')
              .map((c) => c.trim())
              .filter(Boolean);
            if (cultures.length) void update({ cultures });
          }}
        />
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={settings.allowRemoteImages}
          onChange={(e) => void update({ allowRemoteImages: e.target.checked })}
        />{' '}
        Load remote images in news
      </label>
    </section>
  );
}
