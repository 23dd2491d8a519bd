/**
 * Replay: re-send a time range of stored webhooks to one trader's connected desktops, on
 * every node. The range is read from the log once (bounded in count, bytes and span), this
 * node writes it to its own streams of that trader, and the other nodes are signalled to do
 * the same with theirs (replay-signal.ts). The app applies replayed events idempotently.
 */
import { randomBytes } from 'node:crypto';
import { compareIds, type EventLog, type StoredEvent } from '../../log/event-log.js';
import { RelayError } from '../../errors.js';
import { PAGE_BYTES } from '../../stream/sse-hub.js';
import type { UserStore } from '../../users/user-store.js';
import { PRESENCE_STALE_MS, type PresenceStore } from '../presence/presence-store.js';
import type { ReplayRequest, ReplaySignal } from './replay-signal.js';
import type { TraderStreams } from '../presence/trader-streams.js';

/** Most events one replay re-sends. */
export const REPLAY_MAX_EVENTS = 1000;
/** Most body bytes one replay re-sends. */
export const REPLAY_MAX_BYTES = 8 * 1024 * 1024;
/** Longest range one replay covers. */
export const REPLAY_MAX_SPAN_MS = 7 * 86_400_000;
/** Pages of the log read at most looking for the range (scanned in id order). */
const MAX_PAGES = 500;

export interface ReplayResult {
  user: string;
  since: number;
  until: number;
  /** Events in the range, re-sent. */
  events: number;
  firstId: string | null;
  lastId: string | null;
  /** Desktops (open streams of the trader) the events were written to, all nodes. */
  desktops: number;
  nodes: { answered: number; expected: number };
}

/** A replay that cannot run, with the status and words to answer with. */
/** A replay refused for what was asked (unknown trader, range too large): answered as is. */
export class ReplayRefused extends RelayError {
  constructor(status: 400 | 404, code: string, message: string) {
    super(status, code, message);
  }
}

export interface ReplayDeps {
  events: EventLog;
  users: Pick<UserStore, 'list'>;
  presence: PresenceStore;
  streams: TraderStreams;
  signal: ReplaySignal;
  node: () => string;
  now: () => number;
}

/** The events with since ≤ receivedAt ≤ until, and the id just before the first. */
async function readRange(events: EventLog, since: number, until: number) {
  const found: StoredEvent[] = [];
  let bytes = 0;
  let cursor = '0';
  let before = '0';
  for (let page = 0; page < MAX_PAGES; page++) {
    const batch = await events.after(cursor, 1000, PAGE_BYTES);
    if (batch.length === 0) break;
    for (const e of batch) {
      if (e.receivedAt > until) return { found, before };
      if (e.receivedAt < since) {
        if (found.length === 0) before = e.id;
        continue;
      }
      bytes += e.body.length;
      if (found.length === REPLAY_MAX_EVENTS || bytes > REPLAY_MAX_BYTES)
        throw new ReplayRefused(
          400,
          'range_too_large',
          `The range holds more than ${REPLAY_MAX_EVENTS} events or ${REPLAY_MAX_BYTES / 1048576} MiB: narrow it with since / until`,
        );
      found.push(e);
    }
    cursor = batch.at(-1)?.id ?? cursor;
  }
  return { found, before };
}

/** Events after `after` up to `last` (what another node asked to replay). */
async function readIds(events: EventLog, after: string, last: string): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  let cursor = after;
  while (out.length < REPLAY_MAX_EVENTS) {
    const batch = await events.after(cursor, 500, PAGE_BYTES);
    if (batch.length === 0) break;
    for (const e of batch) {
      if (compareIds(e.id, last) > 0) return out;
      out.push(e);
    }
    cursor = batch.at(-1)?.id ?? cursor;
  }
  return out;
}

/** Replays asked of this node, and events this node wrote to desktops (its own and others' asks). */
export interface ReplayCounters {
  requests: number;
  eventsSent: number;
}

export function replayService(deps: ReplayDeps) {
  const counters: ReplayCounters = { requests: 0, eventsSent: 0 };
  const send = (user: string, events: StoredEvent[]) => {
    const reached = deps.streams.replay(user, events);
    counters.eventsSent += reached * events.length;
    return reached;
  };

  async function checkUser(user: string): Promise<void> {
    const active = (await deps.users.list()).some((u) => u.name === user && u.revokedAt === null);
    if (!active) throw new ReplayRefused(404, 'unknown_user', `No active trader named "${user}"`);
  }

  function checkRange(since: number, until: number): void {
    const now = deps.now();
    if (since > until)
      throw new ReplayRefused(400, 'invalid_request', 'since must be before until');
    if (since > now) throw new ReplayRefused(400, 'invalid_request', 'since is in the future');
    if (until - since > REPLAY_MAX_SPAN_MS)
      throw new ReplayRefused(400, 'range_too_large', 'A replay covers at most 7 days');
  }

  /** Other live nodes, which should each answer a signalled replay. */
  async function otherNodes(): Promise<number> {
    const now = deps.now();
    const nodes = await deps.presence.nodes();
    return nodes.filter((n) => n.node !== deps.node() && now - n.reportedAt <= PRESENCE_STALE_MS)
      .length;
  }

  async function replay(user: string, since: number, until: number): Promise<ReplayResult> {
    checkRange(since, until);
    await checkUser(user);
    counters.requests++;
    const { found, before } = await readRange(deps.events, since, until);
    const first = found[0]?.id ?? null;
    const last = found.at(-1)?.id ?? null;
    const result = { user, since, until, events: found.length, firstId: first, lastId: last };
    if (last === null) return { ...result, desktops: 0, nodes: { answered: 0, expected: 0 } };
    const local = send(user, found);
    const request: ReplayRequest = {
      id: randomBytes(8).toString('hex'),
      user,
      after: before,
      last,
      origin: deps.node(),
    };
    const expected = await otherNodes();
    // The other nodes out of reach (Redis away): this node's desktops got it; the answer says so.
    const others = await deps.signal
      .broadcast(request, expected)
      .catch(() => ({ answered: 0, expected, desktops: 0 }));
    return {
      ...result,
      desktops: local + others.desktops,
      nodes: { answered: others.answered, expected: others.expected },
    };
  }

  /** Another node's request: replay to this node's streams of that trader. */
  async function handle(req: ReplayRequest): Promise<number> {
    if (deps.streams.count(req.user) === 0) return 0;
    return send(req.user, await readIds(deps.events, req.after, req.last));
  }

  return { replay, handle, counters };
}
