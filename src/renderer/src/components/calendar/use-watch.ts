/** Watching an event (the bell): the alert rules' watched list, updated at once, kept in sync. */
import { useCallback } from 'react';
import { useApp, useStores } from '../../state/index.js';

const EMPTY: string[] = [];

export function useWatched(): string[] {
  return useApp((s) => s.settings?.alertRules.watchedEventIds ?? EMPTY);
}

/** Toggle (or set) an event's watch; the bell changes before the host answers. */
export function useToggleWatch(): (eventId: string, watched?: boolean) => Promise<void> {
  const { app, calendar } = useStores();
  return useCallback(
    async (eventId, watched) => {
      const settings = app.getState().settings;
      if (!settings) return;
      const ids = settings.alertRules.watchedEventIds;
      const next = watched ?? !ids.includes(eventId);
      const patch = (list: string[]) => {
        const s = app.getState().settings;
        if (s)
          app.setState({
            settings: { ...s, alertRules: { ...s.alertRules, watchedEventIds: list } },
          });
      };
      patch(next ? [...new Set([...ids, eventId])] : ids.filter((x) => x !== eventId));
      const rules = await calendar.getState().setWatched(eventId, next);
      if (rules) patch(rules.watchedEventIds);
      else patch(ids);
    },
    [app, calendar],
  );
}
