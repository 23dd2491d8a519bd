/**
 * The app core as its own process for the chaos tests: the real service (createAppService)
 * with keys and the relay token from the environment (an in-memory keychain), printing
 * one JSON line per alert (with its receipt), per notification shown, per change the
 * safety net or a backfill applied, and per connection-state or reason change, and its
 * alert history on exit.
 *
 * In desk mode (desk-in-a-box.test.ts) no keys are given: MACROBELL_RELAY_URL (a node list)
 * and MACROBELL_RELAY_TOKEN, a trader's personal token, and the app reads through the desk.
 * CHAOS_REPORT_RELAY=1 also prints the changes the relay's stream applied, and each frame
 * of the stream the app applied (`{"t":"frames"}`: ids, types, event dates), through a tap on
 * the real consumer's applier — frames are counted where they land, duplicates included.
 *
 * Optional: CHAOS_SAFETY_NET (JSON, the net's tuning), and commands on stdin, one JSON
 * line each — `{"cmd":"advance","ms":N}` moves the app's injected clock forward (a laptop
 * that slept N ms), `{"cmd":"sync"}` runs a backfill ("Sync now"), `{"cmd":"watch","eventId":ID}`
 * watches an event (the star in the calendar).
 */
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { createAppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import { compareEventIds } from '../../../src/shared/relay-ids.js';
import type { RelayConsumerOptions } from '../../../src/main/sync/live-source.js';

const env = process.env;
const dataDir = env.CHAOS_DATA_DIR as string;
const secrets = new MemorySecretStore();
if (env.CHAOS_PUBLIC_KEY) await secrets.set('publicKey', env.CHAOS_PUBLIC_KEY);
if (env.CHAOS_PRIVATE_KEY) await secrets.set('privateKey', env.CHAOS_PRIVATE_KEY);
if (env.CHAOS_RELAY_TOKEN) await secrets.set('relayToken', env.CHAOS_RELAY_TOKEN);

const out = (line: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ at: Date.now(), ...line })}\n`);

/**
 * The consumer's applier, each frame it applied printed after it was. A run that fails
 * part way has committed its first frames (each with the cursor, in its own transaction):
 * those up to the persisted cursor are printed too, the rest come again after the reconnect.
 */
function tapped(
  applier: RelayConsumerOptions['applier'],
  cursor: () => string | null,
): RelayConsumerOptions['applier'] {
  const frame = (id: string, payload: unknown) => {
    const p = (payload ?? {}) as { type?: unknown; eventDateId?: unknown };
    return { id, type: p.type, eventDateId: p.eventDateId ?? null };
  };
  const applied = (items: { id: string; payload: unknown }[]) => {
    const done = cursor();
    return done === null ? [] : items.filter((i) => compareEventIds(i.id, done) <= 0);
  };
  const print = (items: { id: string; payload: unknown }[]) => {
    if (items.length > 0) out({ t: 'frames', frames: items.map((i) => frame(i.id, i.payload)) });
  };
  const tap = async (items: { id: string; payload: unknown }[], apply: () => Promise<void>) => {
    try {
      await apply();
    } catch (err) {
      print(applied(items));
      throw err;
    }
    print(items);
  };
  return {
    one: (id, payload, receivedAt) =>
      tap([{ id, payload }], () => applier.one(id, payload, receivedAt)),
    ...(applier.batch && {
      batch: (items) => tap(items, () => applier.batch!(items)),
    }),
    ...(applier.replay && { replay: (item) => applier.replay!(item) }),
    ...(applier.start && { start: (id) => applier.start!(id) }),
  };
}

let offsetMs = 0;
const service = await createAppService({
  dataDir,
  mode: 'real',
  secretStore: secrets,
  logFile: join(dataDir, 'logs', 'macrobell.log'),
  env,
  now: () => Date.now() + offsetMs,
  ...(env.CHAOS_SAFETY_NET ? { safetyNet: JSON.parse(env.CHAOS_SAFETY_NET) as object } : {}),
  ...(env.CHAOS_REPORT_RELAY === '1'
    ? {
        relayConsumer: (o) =>
          new RelayConsumer({ ...o, applier: tapped(o.applier, () => o.getLastEventId()) }),
      }
    : {}),
});
let lastState = '';
service.on('status', (s) => {
  const key = `${s.connection.state}|${s.connection.reason}`;
  if (key === lastState) return;
  lastState = key;
  out({
    t: 'state',
    state: s.connection.state,
    reason: s.connection.reason,
    relay: s.relay?.connected,
  });
});
service.on('alert', (a) => {
  if (a.target.type !== 'eventDate') return;
  out({ t: 'alert', kind: a.kind, id: a.target.eventDateId, late: a.late, receipt: a.receipt });
});
service.on('notification', (n) =>
  out({ t: 'notification', alertIds: n.alertIds, silent: n.silent }),
);
service.on('changes', (changes) => {
  const found = changes.filter(
    (c) =>
      c.source === 'poll' ||
      c.source === 'backfill' ||
      (c.source === 'relay' && env.CHAOS_REPORT_RELAY === '1'),
  );
  if (found.length === 0) return;
  out({
    t: 'changes',
    items: found.map((c) => ({
      source: c.source,
      kind: c.kind,
      id: 'eventDate' in c && c.eventDate ? c.eventDate.id : null,
    })),
  });
});
// A host (Electron, the web server) keeps the process alive; the core's timers are unref'd.
const keepAlive = setInterval(() => undefined, 1 << 30);
await service.start();
out({ t: 'ready', state: (await service.api.getStatus()).connection.state });

createInterface({ input: process.stdin }).on('line', (text) => {
  const cmd = JSON.parse(text) as { cmd: string; ms?: number; eventId?: string };
  if (cmd.cmd === 'advance') offsetMs += cmd.ms ?? 0;
  if (cmd.cmd === 'sync') void service.api.syncNow().then(() => out({ t: 'synced' }));
  if (cmd.cmd === 'watch' && cmd.eventId)
    void service.api
      .setWatched({ eventId: cmd.eventId, watched: true })
      .then(() => out({ t: 'watched', eventId: cmd.eventId }));
});

process.on('SIGTERM', () => {
  void (async () => {
    const alerts = await service.api.listAlerts({ limit: 1000 });
    out({
      t: 'history',
      alerts: alerts.flatMap((a) =>
        a.target.type === 'eventDate'
          ? [{ kind: a.kind, id: a.target.eventDateId, late: a.late, receipt: a.receipt }]
          : [],
      ),
    });
    await service.stop();
    clearInterval(keepAlive);
    process.exit(0);
  })();
});
