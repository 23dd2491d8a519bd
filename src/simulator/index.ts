/**
 * The market-data simulator as a library: `startSimulator()` starts the whole service on
 * one port and returns its URLs. Demo mode, every test and every benchmark use it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateCalendar } from './data/calendar.js';
import { generatePosts } from './data/news.js';
import { Deliverer } from './deliveries.js';
import { compressUpcoming } from './fast-demo.js';
import { Autoplay, ScenarioClock } from './scenario.js';
import { calendarWindowJson } from './routes/calendar.js';
import { createHandler } from './server.js';
import { createState, postKey, type SimulatorState } from './state.js';
import { TokenIssuer } from './tokens.js';
import { World } from './world.js';

export type { SimulatorState } from './state.js';

export interface SimulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  seed?: number | string;
  /**
   * 1 = real time, 0 = a frozen clock. Above 1 a fast demo: the clock stays real and the
   * upcoming releases come `speed` times sooner (fast-demo.ts).
   */
  speed?: number;
  clientId?: string;
  clientSecret?: string;
  /** Scenario start (ms); defaults to now. */
  now?: number;
  tokenLifetimeSec?: number;
  /** The clock token lifetimes run on (default the wall clock; tests inject one). */
  tokenClock?: () => number;
  /** Retry delays in ms (before scaling by speed). */
  retrySchedule?: number[];
  /** Release values and publish posts by itself (demo); tests turn it off. */
  autoplay?: boolean;
  /** How long one webhook delivery may take before it counts as failed (default 5000). */
  deliveryTimeoutMs?: number;
  log?: (msg: string) => void;
}

export interface RunningSimulator {
  url: string;
  authUrl: string;
  calendarUrl: string;
  newsUrl: string;
  clientId: string;
  clientSecret: string;
  state: SimulatorState;
  /**
   * The calendar window [from, to] (ms) as the calendar API serves it in `lang`, without a
   * request: the demo seeds an empty cache with it before its first token exchange.
   */
  eventDatesJson(from: number, to: number, lang: string): unknown[];
  /** Resolves when no webhook delivery is in flight. */
  deliveriesIdle(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_RETRY_SCHEDULE = [5_000, 30_000, 120_000, 600_000];

export async function startSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = opts.host ?? '127.0.0.1';
  const seed = opts.seed ?? 1;
  const speed = opts.speed ?? 1;
  const clientId = opts.clientId ?? 'demo-public';
  const clientSecret = opts.clientSecret ?? 'demo-private';
  const start = opts.now ?? Date.now();
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));

  // a fast demo moves its releases, not its clock: everyone reads the same "now". Started
  // before the calendar is generated (a fraction of a second), so it does not run behind
  // the wall clock by that much (a print stamped before its release time).
  const clock = new ScenarioClock(start, speed > 1 ? 1 : speed, speed > 1 ? speed : 1);

  const state = createState();
  const calendar = generateCalendar(seed, start);
  for (const model of calendar.events) state.events.set(model.event.id, model);
  for (const ed of calendar.eventDates) state.scheduledAt.set(ed.id, Date.parse(ed.dateUtc));
  for (const ed of compressUpcoming(calendar.eventDates, start, speed))
    state.eventDates.set(ed.id, ed);
  for (const post of generatePosts(seed, start, calendar.eventDates))
    state.posts.set(postKey(post.Culture, post.Id), post);

  // retries follow the scenario clock; a frozen clock (0) keeps real-time delays
  const scale = speed > 0 ? speed : 1;
  const deliverer = new Deliverer(
    state,
    (opts.retrySchedule ?? DEFAULT_RETRY_SCHEDULE).map((ms) =>
      Math.max(10, Math.round(ms / scale)),
    ),
    opts.deliveryTimeoutMs ?? 5_000,
  );
  const tokens = new TokenIssuer(
    clientId,
    clientSecret,
    opts.tokenLifetimeSec ?? 86_399,
    state,
    opts.tokenClock,
  );
  const world = new World(state, deliverer, clock.now, seed);
  const autoplay = opts.autoplay === false ? null : new Autoplay(world, clock, seed);

  const server = createServer(
    createHandler({ state, tokens, deliverer, world, clock, autoplay, log }),
  );
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  autoplay?.start();

  let closed = false;
  return {
    url,
    authUrl: `${url}/auth`,
    calendarUrl: `${url}/calendar`,
    newsUrl: `${url}/news`,
    clientId,
    clientSecret,
    state,
    eventDatesJson: (from, to, lang) => calendarWindowJson(state, from, to, lang),
    deliveriesIdle: () => deliverer.idle(),
    async close() {
      if (closed) return;
      closed = true;
      autoplay?.stop();
      deliverer.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
