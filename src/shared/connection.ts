/**
 * The words for the connection state, shared by the status bar, the banner and the tray
 * so they always say the same thing. Pure.
 */
import type { ConnectionInfo } from './domain.js';

const TRANSPORT = { relay: 'relay', webhooks: 'webhooks', polling: 'polling' } as const;

/** A short label: "Live (relay)", "Live — webhooks late", "Reconnecting", "Offline". */
export function connectionLabel(c: ConnectionInfo, demo: boolean): string {
  switch (c.state) {
    case 'connecting':
      return 'Connecting…';
    case 'live':
      return `Live (${demo && c.transport === 'webhooks' ? 'demo webhooks' : TRANSPORT[c.transport]})`;
    case 'behind':
      return 'Live — relay behind';
    case 'late':
      return 'Live — webhooks late';
    case 'apiDown':
      return 'Live — API unavailable';
    case 'reconnecting':
      return 'Reconnecting';
    case 'offline':
      return 'Offline';
  }
}

/** The state's colour class: good, degraded or bad. */
export function connectionTone(c: ConnectionInfo): 'good' | 'degraded' | 'bad' {
  if (c.state === 'live') return 'good';
  if (c.state === 'offline') return 'bad';
  return 'degraded';
}
