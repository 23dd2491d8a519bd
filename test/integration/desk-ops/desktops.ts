/** Desktops for the desk-operations tests: the app's relay consumer and presence reporter. */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { PresenceReporter } from '../../../src/main/desk/presence-reporter.js';
import type { AlertsToday } from '../../../src/shared/desk-alerts-today.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import { waitFor } from '../../support/wait.js';

export interface Desktop {
  name: string;
  consumer: RelayConsumer;
  reporter: PresenceReporter;
  applied: { id: string; payload: unknown }[];
  /** Events the desk replayed to it (`event: replay`). */
  replayed: { id: string; payload: unknown }[];
  cursor: () => string | null;
  /**
   * Resolves once the relay answered the stream's headers: it writes them after it took the
   * desktop on, so a webhook stored from then on reaches a desktop that had no cursor.
   */
  live(): Promise<void>;
  stop(): Promise<void>;
}

/** A desktop as the app runs it: applies in order, keeps the cursor, reports presence. */
export function startDesktop(opts: {
  name: string;
  url: string;
  token: string;
  desktopId: string;
  appVersion?: string;
  reportEveryMs?: number;
  /** What it says about today's prints (the app sums up its alert receipts). */
  alertsToday?: () => AlertsToday | null;
}): Desktop {
  let cursor: string | null = null;
  const applied: { id: string; payload: unknown }[] = [];
  const replayed: { id: string; payload: unknown }[] = [];
  let connected = false;
  const reporter = new PresenceReporter({
    token: async () => opts.token,
    desktopId: opts.desktopId,
    appVersion: opts.appVersion ?? '1.4.2',
    os: 'linux 6.1',
    everyMs: opts.reportEveryMs ?? 200,
    alertsToday: opts.alertsToday,
  });
  const consumer = new RelayConsumer({
    url: opts.url,
    token: async () => opts.token,
    getLastEventId: () => cursor,
    applier: {
      one: async (id, payload) => {
        applied.push({ id, payload });
        cursor = id;
      },
      replay: async ({ id, payload }) => void replayed.push({ id, payload }),
    },
    onReset: async () => undefined,
    onReconnectGap: async () => undefined,
    onStatus: (status) => void (connected = status.connected),
    presence: reporter,
    backoff: { minMs: 50, maxMs: 200 },
  });
  consumer.start();
  return {
    name: opts.name,
    consumer,
    reporter,
    applied,
    replayed,
    cursor: () => cursor,
    live: async () => void (await waitFor(() => connected, `${opts.name}'s stream open`)),
    async stop() {
      await consumer.stop();
      reporter.disconnected();
      await reporter.idle();
    },
  };
}

/**
 * A TCP proxy in front of a relay or Redis. `drop()` cuts every connection and refuses new
 * ones until `restore()`. `freeze()` is a frozen link (a SIGSTOPped Redis, a network that
 * stops forwarding): connections stay open and new ones are accepted, but no byte goes
 * through either way until `thaw()`, which delivers what was held, as the kernel would.
 */
export async function startCuttableProxy(target: string): Promise<{
  url: string;
  drop(): void;
  restore(): void;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let dropped = false;
  let frozen = false;
  const link = ([client, upstream]: [Socket, Socket]) => client.pipe(upstream).pipe(client);
  const server: Server = createServer((client) => {
    if (dropped) return client.destroy();
    const upstream = connect(Number(port), hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    for (const s of pair) {
      sockets.add(s);
      s.on('close', () => {
        sockets.delete(s);
        pairs.delete(pair);
      });
      s.on('error', () => undefined);
    }
    // Frozen: the bytes wait in the sockets (paused), unread, until thawed.
    if (frozen) for (const s of pair) s.pause();
    else link(pair);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    drop() {
      dropped = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      dropped = false;
    },
    freeze() {
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) link(pair);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
