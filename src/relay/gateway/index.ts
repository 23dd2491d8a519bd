/**
 * The desk's read gateway: `GET /service/calendar/…` and `GET /service/news/…` with a
 * trader's personal token. The relay reads the service with its own token (which no
 * trader ever sees) and answers with the service's status, Retry-After and body as they
 * came. Only the app's read calls are forwarded (read-routes.ts); everything else —
 * webhook management included — is 404. The personal token is checked on every request,
 * so a revoked trader is refused at once, whatever they read before.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { RelayErrors } from '../errors.js';
import { requireUser } from '../routes/auth.js';
import { heldReads, type Admit } from './held-reads.js';
import type { HeldRefusalStats } from './held-refusals.js';
import { pacedWriter, type PacedWriterStats } from './paced-writer.js';
import { ReadCache, type ReadCacheStats } from './read-cache.js';
import { matchReadRoute, type GatewayScope } from './read-routes.js';
import { refusalLog } from './refusal-log.js';
import { createUpstream } from './upstream.js';
import { cutChunks, cutEtag } from './window.js';

export interface GatewayOptions {
  calendarUrl: string;
  newsUrl: string;
  tokens: () => TokenManager | null;
  /**
   * Takes `cost` of the trader's reads (a token bucket, shared by every node on Redis):
   * 0 when allowed, else the ms to wait. A read of the service costs one, an answer from
   * the cache a fraction (read-cache.ts); either needs a whole token left.
   */
  admit?: Admit;
  logger?: Logger;
  now?: () => number;
  /** How a refused read is held, or a paced answer paused (tests pass one they release). */
  wait?: (ms: number) => Promise<unknown>;
  /** The clock that paces answers' bytes (paced-writer.ts; default performance.now). */
  monotonicNow?: () => number;
}

/**
 * Reads of the service one trader may cause: per second, and at once. An app starting on
 * a cold cache reads about a hundred answers in its first second (calendar windows, the
 * events behind them, news): the burst lets it; the rate is what a flood gets after.
 */
export const UPSTREAM_READS_PER_SECOND = 2;
export const UPSTREAM_READS_BURST = 300;

export interface Gateway {
  handles(path: string): boolean;
  /** `rawPath`: the request path as sent (percent-encoded), without the query. */
  route(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string,
    query: URLSearchParams,
    authenticate: () => Promise<string | null>,
  ): Promise<void>;
  stats(): ReadCacheStats & HeldRefusalStats & PacedWriterStats;
}

const PREFIX = /^\/service\/(calendar|news)(\/.*)?$/;

function ifNoneMatchHits(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header === '*' || header.split(',').some((t) => bare(t) === bare(etag));
}

export function createGateway(opts: GatewayOptions): Gateway {
  const fetchUpstream = createUpstream({
    baseUrl: (scope: GatewayScope) => (scope === 'calendar' ? opts.calendarUrl : opts.newsUrl),
    tokens: opts.tokens,
    logger: opts.logger,
  });
  const cache = new ReadCache({ fetch: fetchUpstream, now: opts.now });
  const logRefusal = refusalLog(opts.logger, opts.now ?? Date.now);
  const readOrHold = heldReads(cache, opts.admit, opts.wait);
  const writer = pacedWriter(opts.monotonicNow, opts.wait);

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string,
    query: URLSearchParams,
    authenticate: () => Promise<string | null>,
  ): Promise<void> {
    req.resume();
    const user = await requireUser(authenticate, opts.logger);
    const m = PREFIX.exec(rawPath);
    const readRoute =
      m && (req.method === 'GET' || req.method === 'HEAD')
        ? matchReadRoute(m[1] as string, m[2] ?? '', query)
        : null;
    if (!readRoute) {
      // Worth an audit line (within a limit): the app never asks for these; someone is probing.
      logRefusal({ user, method: req.method, path: rawPath });
      throw RelayErrors.NOT_FOUND();
    }
    const read = await readOrHold(user, readRoute, res);
    if (!read) return;
    // A window's cut is slices of the kept bytes, written as they are (never copied).
    const cut = readRoute.window && read.index ? cutChunks(read.index, readRoute.window) : null;
    // No header says whether the answer was cached: that would tell a trader what
    // colleagues read in the last minute.
    const headers: Record<string, string> = {
      ...read.headers,
      ...(cut && readRoute.window ? { etag: cutEtag(read, readRoute.window) } : {}),
      'cache-control': 'private, no-cache',
    };
    if (read.status === 200 && ifNoneMatchHits(req.headers['if-none-match'], headers.etag)) {
      delete headers['content-type'];
      return void res.writeHead(304, headers).end();
    }
    const chunks = cut ? cut.chunks : [read.body];
    headers['content-length'] = String(cut ? cut.bytes : read.body.length);
    res.writeHead(read.status, headers);
    if (req.method === 'HEAD') return void res.end();
    await writer.write(user, res, chunks);
  }

  return {
    handles: (path) => path === '/service' || path.startsWith('/service/'),
    route,
    stats: () => ({ ...cache.stats, ...readOrHold.stats, ...writer.stats }),
  };
}
