/**
 * The relay server: `POST /hooks/{secret}` stores a webhook and answers 204 only after
 * the commit; `GET /events` streams stored webhooks over SSE with Last-Event-ID resume;
 * `GET /events/page` pages them as JSON; `/healthz` and `/metrics` for operators.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { EventLog, type StoredEvent } from './event-log.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const KEPT_HEADERS = [
  'content-type',
  'user-agent',
  'x-request-id',
  'x-forwarded-for',
  'x-webhook-id',
];

export interface RelayOptions {
  dataDir: string;
  secret: string;
  token: string;
  port?: number;
  host?: string;
  retentionDays?: number;
  heartbeatMs?: number;
  /** A client whose unsent backlog grows past this is disconnected (it resumes later). */
  maxQueuedBytesPerClient?: number;
  now?: () => number;
  log?: (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => void;
}

export interface RunningRelay {
  url: string;
  webhookUrl: string;
  port: number;
  log: EventLog;
  metrics(): string;
  close(): Promise<void>;
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

interface Client {
  res: ServerResponse;
  cursor: number;
  live: boolean;
}

export async function startRelay(opts: RelayOptions): Promise<RunningRelay> {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const events = new EventLog(join(opts.dataDir, 'relay.db'), now);
  const clients = new Set<Client>();
  const maxQueued = opts.maxQueuedBytesPerClient ?? 8 * 1024 * 1024;
  const retentionMs = (opts.retentionDays ?? 7) * 86_400_000;
  let streamed = 0;
  let rejected = 0;

  const frame = (e: StoredEvent) =>
    `id: ${e.id}\nevent: notification\ndata: ${e.body.toString('utf8').replace(/\r?\n/g, '')}\n\n`;

  /** Write, and cut a consumer that cannot keep up (it resumes from its last id). */
  const send = (c: Client, text: string): boolean => {
    if (c.res.destroyed) return false;
    const ok = c.res.write(text);
    if (!ok && c.res.writableLength > maxQueued) {
      log('warn', 'slow consumer disconnected', { backlog: c.res.writableLength });
      c.res.destroy();
      clients.delete(c);
      return false;
    }
    return true;
  };

  events.onAppend((batch) => {
    for (const c of clients) {
      if (!c.live) continue;
      for (const e of batch) {
        if (e.id <= c.cursor) continue;
        if (!send(c, frame(e))) break;
        c.cursor = e.id;
        streamed++;
      }
    }
  });

  const authorized = (req: IncomingMessage, url: URL): boolean => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const presented = m?.[1] ?? null;
    void url;
    return presented !== null && equal(presented, opts.token);
  };

  async function ingest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      res.setHeader('connection', 'close');
      json(res, 413, {
        error: 'payload_too_large',
        message: 'Webhook bodies are limited to 1 MiB',
      });
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.setHeader('connection', 'close');
        json(res, 413, {
          error: 'payload_too_large',
          message: 'Webhook bodies are limited to 1 MiB',
        });
        req.destroy();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      rejected++;
      return json(res, 400, { error: 'invalid_json', message: 'The body is not valid JSON' });
    }
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed) ||
      typeof (parsed as { type?: unknown }).type !== 'string'
    ) {
      rejected++;
      return json(res, 400, {
        error: 'invalid_notification',
        message: 'Expected a JSON object with a string "type"',
      });
    }
    const headers: Record<string, string> = {};
    for (const h of KEPT_HEADERS) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    await events.append(body, (parsed as { type: string }).type, headers);
    res.writeHead(204).end();
  }

  async function stream(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const header = req.headers['last-event-id'];
    const raw = (typeof header === 'string' ? header : null) ?? url.searchParams.get('after');
    const after = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    const client: Client = { res, cursor: after ?? events.lastId(), live: after === null };
    clients.add(client);
    const hb = setInterval(() => send(client, ': hb\n\n'), opts.heartbeatMs ?? 15_000);
    hb.unref();
    req.on('close', () => {
      clearInterval(hb);
      clients.delete(client);
    });
    if (after === null) return;
    if (events.gapAfter(after)) {
      res.write(
        `event: reset\ndata: ${JSON.stringify({ oldestId: events.oldestId(), lastId: events.lastId() })}\n\n`,
      );
    }
    // Replay from the log in pages, then go live with no gap and no duplicate: the switch
    // happens in the same turn as the last (short) page read.
    for (;;) {
      const page = events.after(client.cursor, 500);
      for (const e of page) {
        if (!send(client, frame(e))) return;
        client.cursor = e.id;
        streamed++;
      }
      if (page.length < 500) break;
      if (res.writableLength > 0) await new Promise((r) => res.once('drain', r));
      if (res.destroyed) return;
    }
    client.live = true;
  }

  function page(res: ServerResponse, url: URL): void {
    const after = Number(url.searchParams.get('after') ?? '0');
    const limit = Math.min(1000, Math.max(1, Number(url.searchParams.get('limit') ?? '100')));
    if (!Number.isSafeInteger(after) || after < 0 || !Number.isFinite(limit))
      return json(res, 400, {
        error: 'invalid_request',
        message: 'after and limit must be non-negative integers',
      });
    const list = events.after(after, limit + 1);
    const items = list.slice(0, limit);
    json(res, 200, {
      events: items.map((e) => ({
        id: e.id,
        receivedAt: e.receivedAt,
        body: JSON.parse(e.body.toString('utf8')) as unknown,
      })),
      nextAfter: items.at(-1)?.id ?? after,
      hasMore: list.length > limit,
      oldestId: events.oldestId(),
      reset: events.gapAfter(after),
    });
  }

  function metrics(): string {
    const lat = [...events.commitLatencies].sort((a, b) => a - b);
    const q = (p: number) =>
      lat.length ? (lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] as number) / 1000 : 0;
    const { rows, bytes } = events.stats();
    return [
      '# HELP macrobell_relay_ingested_total Webhooks stored and acknowledged.',
      '# TYPE macrobell_relay_ingested_total counter',
      `macrobell_relay_ingested_total ${events.ingested}`,
      '# HELP macrobell_relay_rejected_total Webhooks refused as malformed.',
      '# TYPE macrobell_relay_rejected_total counter',
      `macrobell_relay_rejected_total ${rejected}`,
      '# HELP macrobell_relay_streamed_total Events written to SSE clients.',
      '# TYPE macrobell_relay_streamed_total counter',
      `macrobell_relay_streamed_total ${streamed}`,
      '# HELP macrobell_relay_connected_clients SSE clients connected now.',
      '# TYPE macrobell_relay_connected_clients gauge',
      `macrobell_relay_connected_clients ${clients.size}`,
      '# HELP macrobell_relay_commit_latency_seconds Group-commit latency.',
      '# TYPE macrobell_relay_commit_latency_seconds summary',
      `macrobell_relay_commit_latency_seconds{quantile="0.5"} ${q(0.5)}`,
      `macrobell_relay_commit_latency_seconds{quantile="0.99"} ${q(0.99)}`,
      `macrobell_relay_commit_latency_seconds_count ${lat.length}`,
      '# HELP macrobell_relay_log_rows Rows in the log.',
      '# TYPE macrobell_relay_log_rows gauge',
      `macrobell_relay_log_rows ${rows}`,
      '# HELP macrobell_relay_log_bytes Bytes of stored bodies.',
      '# TYPE macrobell_relay_log_bytes gauge',
      `macrobell_relay_log_bytes ${bytes}`,
      '',
    ].join('\n');
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    const path = url.pathname;
    const done = (p: Promise<void>) =>
      p.catch((err: unknown) => {
        log('error', 'request failed', { err: String(err) });
        if (!res.headersSent)
          json(res, 500, {
            error: 'server_error',
            message: 'The relay could not store the webhook',
          });
        else res.destroy();
      });
    if (path.startsWith('/hooks/')) {
      if (!equal(decodeURIComponentSafe(path.slice('/hooks/'.length)), opts.secret)) {
        req.resume();
        return json(res, 404, { error: 'not_found', message: 'Not found' });
      }
      if (req.method !== 'POST') {
        req.resume();
        res.setHeader('allow', 'POST');
        return json(res, 405, { error: 'method_not_allowed', message: 'Use POST' });
      }
      return void done(ingest(req, res));
    }
    if (path === '/healthz') return json(res, 200, { ok: true, lastId: events.lastId() });
    if (path === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      return void res.end(metrics());
    }
    if (path === '/events' || path === '/events/page') {
      if (!authorized(req, url)) {
        res.setHeader('www-authenticate', 'Bearer');
        return json(res, 401, { error: 'unauthorized', message: 'Missing or wrong bearer token' });
      }
      if (req.method !== 'GET')
        return json(res, 405, { error: 'method_not_allowed', message: 'Use GET' });
      if (path === '/events/page') return page(res, url);
      return void done(stream(req, res, url));
    }
    json(res, 404, { error: 'not_found', message: 'Not found' });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  server.keepAliveTimeout = 30_000;

  events.trim(retentionMs);
  const trimTimer = setInterval(() => events.trim(retentionMs), 3_600_000);
  trimTimer.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    webhookUrl: `${url}/hooks/${opts.secret}`,
    port,
    log: events,
    metrics,
    async close() {
      clearInterval(trimTimer);
      for (const c of clients) c.res.end();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      events.close();
    },
  };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
}
