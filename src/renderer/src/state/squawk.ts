/**
 * The desk squawk: opt-in, the renderer reads prints aloud with the platform's speech
 * synthesis, and the consensus 10 seconds before each watched release (the texts are
 * src/shared/squawk-text.ts). A pause of alerts pauses it too.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { EventDate, Settings } from '../../../shared/domain.js';
import { CONSENSUS_LEAD_MS, consensusText, printText } from '../../../shared/squawk-text.js';
import type { Bridge } from '../bridge/index.js';
import type { AppState } from './app.js';

export interface Speaker {
  speak(text: string): void;
}

/** window.speechSynthesis, or null where the platform has none. */
export function platformSpeaker(): Speaker | null {
  if (typeof window === 'undefined' || !window.speechSynthesis) return null;
  return {
    speak(text) {
      window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
    },
  };
}

export interface SquawkOptions {
  speaker?: Speaker | null;
  now?: () => number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (t: unknown) => void;
}

/** Consensus timers are armed this far ahead, and re-planned this often. */
const HORIZON_MS = 30 * 60_000;

function covers(s: Settings, ed: EventDate): boolean {
  if (s.squawk.prints === 'off') return false;
  if (s.alertRules.watchedEventIds.includes(ed.eventId)) return true;
  return s.squawk.prints === 'watched-and-high' && ed.volatility === 'HIGH';
}

export function startSquawk(bridge: Bridge, app: StoreApi<AppState>, o: SquawkOptions = {}) {
  const found = o.speaker === undefined ? platformSpeaker() : o.speaker;
  if (!found) return () => undefined;
  const speaker: Speaker = found;
  const now = o.now ?? Date.now;
  const later = o.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const cancel = o.clearTimeout ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  const settings = () => app.getState().settings;
  const paused = (s: Settings) =>
    s.alertRules.pausedUntil !== null && s.alertRules.pausedUntil > now();
  const spoken = new Set<string>(); // each print once, whatever repeats the push
  let timers: unknown[] = [];

  const offChanges = bridge.on('changes', (changes) => {
    const s = settings();
    if (!s) return;
    for (const c of changes) {
      // Only a print the alert decision calls news (not history a detail fetched, not late).
      if (c.kind !== 'released' || !c.print || c.print.late) continue;
      if (spoken.has(c.eventDate.id) || !covers(s, c.eventDate)) continue;
      spoken.add(c.eventDate.id);
      const text = printText(c.eventDate);
      if (text && !paused(s)) speaker.speak(text);
    }
    const moved = (k: string) =>
      k === 'rescheduled' || k === 'eventDateAdded' || k === 'eventDateRemoved';
    if (changes.some((c) => moved(c.kind))) void plan();
  });

  /** Each plan replaces the last; one still awaiting its rows when a newer starts arms nothing. */
  let generation = 0;
  async function plan(): Promise<void> {
    const mine = ++generation;
    timers.forEach(cancel);
    timers = [later(() => void plan(), HORIZON_MS)];
    const s = settings();
    const watched = s?.alertRules.watchedEventIds ?? [];
    if (!s?.squawk.consensus || watched.length === 0) return;
    const t = now();
    const rows = await bridge.api
      .listEventDates({
        from: new Date(t).toISOString(),
        to: new Date(t + HORIZON_MS + CONSENSUS_LEAD_MS).toISOString(),
      })
      .catch(() => [] as EventDate[]);
    // Two plans in flight (settings, then a reschedule) would arm each consensus twice.
    if (mine !== generation) return;
    for (const ed of rows) {
      const at = Date.parse(ed.dateUtc) - CONSENSUS_LEAD_MS;
      if (ed.actual !== null || !watched.includes(ed.eventId) || at < now()) continue;
      timers.push(
        later(() => {
          const current = settings();
          if (current?.squawk.consensus && !paused(current))
            speaker.speak(consensusText(ed, CONSENSUS_LEAD_MS / 1000));
        }, at - now()),
      );
    }
  }

  // Settings (the squawk, the watch list) change: plan again.
  let last: Settings | null = null;
  const offApp = app.subscribe(({ settings: s }) => {
    if (!s || s === last) return;
    const before = last;
    last = s;
    if (
      before?.squawk.consensus !== s.squawk.consensus ||
      before?.alertRules.watchedEventIds !== s.alertRules.watchedEventIds
    )
      void plan();
  });
  return () => {
    offChanges();
    offApp();
    timers.forEach(cancel);
  };
}
