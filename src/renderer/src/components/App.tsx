import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useApp, useStores } from '../state/index.js';
import type { Screen } from '../state/app.js';
import { Calendar, useCalendarBoot } from './Calendar.js';
import { NewsUnreadBadge } from './NewsUnreadBadge.js';
import { StatusBar } from './StatusBar.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { AlertBanner } from './AlertBanner.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { throwIfFault } from '../lib/test-faults.js';
import { UpdateNotice } from './UpdateNotice.js';
import { SkipLink } from './SkipLink.js';
import { TitleCountdown } from './TitleCountdown.js';
import { KeyboardHelp } from './KeyboardHelp.js';
import { useAfterStartup } from '../state/use-after-startup.js';
import { BellIcon, CalendarIcon, GearIcon, NewsIcon } from './icons.js';

// News and Alerts are loaded after the calendar's first rows (or when opened before that):
// the first paint does not wait for their code (the news sanitiser alone is a sixth of the
// bundle).
const loadNews = () => import('./News.js');
const loadAlerts = () => import('./Alerts.js');
// Settings too: its cards (and the 419-zone list) are not needed to show the calendar.
const loadSettings = () => import('./Settings.js');
const News = lazy(() => loadNews().then((m) => ({ default: m.News })));
const Alerts = lazy(() => loadAlerts().then((m) => ({ default: m.Alerts })));
const Settings = lazy(() => loadSettings().then((m) => ({ default: m.Settings })));

const NAV: { screen: Screen; label: string; icon: ReactNode }[] = [
  { screen: 'calendar', label: 'Calendar', icon: <CalendarIcon /> },
  { screen: 'news', label: 'News', icon: <NewsIcon /> },
  { screen: 'alerts', label: 'Alerts', icon: <BellIcon size={16} /> },
  { screen: 'settings', label: 'Settings', icon: <GearIcon /> },
];

/** The calendar screen (its test fault switch makes it throw as it mounts). */
function CalendarScreen() {
  throwIfFault('calendar-throws');
  return <Calendar />;
}

function useTheme(theme: 'system' | 'light' | 'dark' | undefined) {
  useEffect(() => {
    const root = document.documentElement;
    if (!theme || theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
  }, [theme]);
}

/** The chunks loaded after the calendar's first rows (the detail too: the first click does not wait). */
function usePreloadScreens() {
  const started = useAfterStartup();
  useEffect(() => {
    if (started)
      void Promise.all([
        loadNews(),
        loadAlerts(),
        loadSettings(),
        import('./EventDetail.js'),
      ]).catch(() => undefined);
  }, [started]);
}

function Sidebar() {
  const { app } = useStores();
  const screen = useApp((s) => s.screen);
  const status = useApp((s) => s.status);
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">
        <img src="./bell.svg" alt="" width={22} height={22} />
        <span>Macrobell</span>
      </div>
      {NAV.map((n) => (
        <button
          key={n.screen}
          type="button"
          className="nav-item"
          aria-current={screen === n.screen ? 'page' : undefined}
          onClick={() => app.getState().go(n.screen)}
        >
          <span aria-hidden="true" className="nav-icon">
            {n.icon}
          </span>
          {n.label}
          {n.screen === 'alerts' && (status?.unreadAlerts ?? 0) > 0 && (
            <span className="badge" aria-label={`${status?.unreadAlerts} unread`}>
              {status?.unreadAlerts}
            </span>
          )}
          {n.screen === 'news' && <NewsUnreadBadge />}
        </button>
      ))}
      {status?.demo && (
        <span
          className="demo-badge"
          data-testid="demo-badge"
          title="No API keys configured: the data comes from the built-in simulator."
        >
          Demo<span className="demo-badge-rest"> data</span>
        </span>
      )}
    </nav>
  );
}

/** The app's own error (a failed load, a refused setting), until dismissed. */
function ErrorBanner() {
  const { app } = useStores();
  const error = useApp((s) => s.error);
  if (!error) return null;
  return (
    <div className="error-banner" role="alert">
      {error}
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss"
        onClick={() => app.getState().setError(null)}
      >
        ✕
      </button>
    </div>
  );
}

export function App() {
  const { app } = useStores();
  const screen = useApp((s) => s.screen);
  const status = useApp((s) => s.status);
  const settings = useApp((s) => s.settings);
  const connection = useApp((s) => s.connection);
  useTheme(settings?.theme);
  useCalendarBoot();
  usePreloadScreens();
  useEffect(() => {
    // the boot's load (main.tsx), shared: its failure shows here
    void app
      .getState()
      .boot()
      .catch((err: Error) => app.getState().setError(err.message));
  }, [app]);
  return (
    <div className="app">
      <SkipLink />
      <Sidebar />
      <main className="content" id="content">
        <UpdateNotice />
        <ConnectionBanner
          status={status}
          bridgeOffline={connection === 'offline'}
          settings={settings}
        />
        <ErrorBanner />
        <ErrorBoundary name="banner" variant="layer">
          <AlertBanner />
        </ErrorBoundary>
        {/* one boundary per screen, a fresh one on each visit: a failed screen is reloaded */}
        <ErrorBoundary key={screen} name={screen} variant="screen">
          {screen === 'calendar' && <CalendarScreen />}
          <Suspense fallback={<p className="muted pad">Loading…</p>}>
            {screen === 'news' && <News />}
            {screen === 'alerts' && <Alerts />}
            {screen === 'settings' && <Settings />}
          </Suspense>
        </ErrorBoundary>
      </main>
      <StatusBar />
      <TitleCountdown />
      <KeyboardHelp />
    </div>
  );
}
