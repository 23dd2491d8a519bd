/**
 * Alerts to the desk's chat (a Slack-compatible webhook, JSON `{text}`): a trader who
 * watches a HIGH release and would miss it (no desktop connected, or lagging) within the
 * lead time before it; this node's store down; webhooks failing to be stored. Each is
 * posted once when it starts and once when it ends (the ledger decides who posts); a
 * release that passes while its trader is still away is counted as a missed window.
 * `check()` runs on a timer; tests call it with their own clock.
 */
import { request } from 'undici';
import type { Logger } from 'pino';
import type { EventLog } from '../event-log.js';
import { MemoryAlertLedger, type AlertLedger } from './alert-ledger.js';
import type { AdminSnapshot } from './admin-view.js';

export type AlertKind = 'would_miss' | 'store_down' | 'ingest_failing';

interface Condition {
  key: string;
  kind: AlertKind;
  text: string;
  recovery: string;
  /** For would-miss: when the release is out (after it, a close is a missed window). */
  releaseAt?: number;
}

export interface DeskAlertsOptions {
  webhookUrl: string | null;
  leadMinutes: number;
  ledger: AlertLedger;
  snapshot: () => Promise<AdminSnapshot>;
  events: EventLog;
  node: () => string;
  now: () => number;
  logger?: Logger;
}

export interface DeskAlertCounters {
  posted: Record<`${AlertKind}:${'alert' | 'recovery'}`, number>;
  missedWindows: number;
  postFailures: number;
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16) + 'Z';

export function startDeskAlerts(opts: DeskAlertsOptions) {
  const counters: DeskAlertCounters = {
    posted: {
      'would_miss:alert': 0,
      'would_miss:recovery': 0,
      'store_down:alert': 0,
      'store_down:recovery': 0,
      'ingest_failing:alert': 0,
      'ingest_failing:recovery': 0,
    },
    missedWindows: 0,
    postFailures: 0,
  };
  // This node's own store and ingest alerts are this node's alone, and must be posted even
  // when the shared ledger is the store that is down: they use a ledger in memory.
  const local = new MemoryAlertLedger();
  const ledgerFor = (c: Condition) => (c.kind === 'would_miss' ? opts.ledger : local);
  /** Conditions this node saw last time, to know what ended. */
  let seen = new Map<string, Condition>();
  let failuresBefore = opts.events.storeFailures;

  async function post(text: string): Promise<void> {
    if (!opts.webhookUrl) return;
    try {
      const res = await request(opts.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`the chat webhook answered ${res.statusCode}`);
    } catch (err) {
      counters.postFailures++;
      // The URL is a secret (it posts to the channel): only the reason is logged.
      opts.logger?.warn({ reason: (err as Error).message }, 'desk alert could not be posted');
    }
  }

  async function conditions(): Promise<Condition[]> {
    const now = opts.now();
    const node = opts.node();
    const out: Condition[] = [];
    const health = opts.events.health();
    if (!health.ok)
      out.push({
        key: `store_down:${node}`,
        kind: 'store_down',
        text: `:rotating_light: Relay ${node}: the store is down (${health.reason ?? 'no reason'}); webhooks are refused and retried by the service.`,
        recovery: `:white_check_mark: Relay ${node}: the store is back.`,
      });
    const failures = opts.events.storeFailures;
    if (failures > failuresBefore)
      out.push({
        key: `ingest_failing:${node}`,
        kind: 'ingest_failing',
        text: `:rotating_light: Relay ${node}: webhooks are failing to be stored (${failures - failuresBefore} since the last check).`,
        recovery: `:white_check_mark: Relay ${node}: webhooks are stored again.`,
      });
    failuresBefore = failures;
    const snap = await opts.snapshot().catch((err: unknown) => {
      opts.logger?.warn({ err }, 'desk alerts: could not read presence');
      return null;
    });
    // Unknown now is not "recovered": keep what was open until it can be read again.
    if (!snap || snap.releasesError !== null) {
      for (const c of seen.values()) if (c.kind === 'would_miss') out.push(c);
      return out;
    }
    for (const r of snap.releases) {
      if (r.at - now > opts.leadMinutes * 60_000 || r.at <= now) continue;
      for (const m of r.wouldMiss) {
        const what = `${r.name} (${r.countryCode}) at ${hhmm(r.at)}`;
        out.push({
          key: `would_miss:${r.id}:${m.user}`,
          kind: 'would_miss',
          releaseAt: r.at,
          text: `:warning: ${m.user} would miss ${what}, in ${Math.round((r.at - now) / 60_000)} min: ${m.reason}.`,
          recovery: `:white_check_mark: ${m.user} is connected and current again for ${what}.`,
        });
      }
    }
    return out;
  }

  /** The ledger's answer, or null when it cannot be reached (retried on the next check). */
  const ask = (p: Promise<boolean>) =>
    p.catch((err: unknown) => {
      opts.logger?.warn({ err }, 'desk alerts: the shared ledger is unavailable');
      return null;
    });

  async function check(): Promise<void> {
    const now = opts.now();
    const current = new Map((await conditions()).map((c) => [c.key, c]));
    for (const c of [...current.values()]) {
      if (seen.has(c.key)) continue;
      const opened = await ask(ledgerFor(c).open(c.key, now));
      if (opened === null) current.delete(c.key);
      else if (opened) {
        counters.posted[`${c.kind}:alert`]++;
        await post(c.text);
      }
    }
    for (const [key, c] of seen) {
      if (current.has(key)) continue;
      const closed = await ask(ledgerFor(c).close(key));
      if (closed === null) current.set(key, c);
      if (!closed) continue;
      if (c.releaseAt !== undefined && c.releaseAt <= now) {
        counters.missedWindows++;
        await post(`:x: ${c.text.replace(/^:warning: (\S+) would miss/, '$1 missed')}`);
      } else {
        counters.posted[`${c.kind}:recovery`]++;
        await post(c.recovery);
      }
    }
    seen = current;
  }

  return { check, counters };
}
