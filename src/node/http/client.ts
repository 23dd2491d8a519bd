/**
 * HTTP for the main process: one pooled keep-alive undici agent, timeouts on connect,
 * headers and body, and retries with exponential backoff and full jitter for network
 * errors, 5xx and 429 — honouring Retry-After (src/node/backoff.ts). Other 4xx are never
 * retried.
 */
import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import { backoffDelay, retryAfterOf } from '../backoff.js';
import { messageOf } from '../../shared/error-message.js';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly url: string,
    readonly bodySnippet: string,
    readonly json: unknown,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    super(`HTTP ${status} from ${url}${bodySnippet ? `: ${bodySnippet}` : ''}`);
  }
}

export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly code = 'network';
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`Cannot reach ${url}: ${messageOf(cause)}`);
  }
}

export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured (a longer hint is capped to this). */
  maxRetryAfterMs: number;
  /** Give up rather than wait longer than this in total across retries. */
  maxTotalDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  maxTotalDelayMs: 60_000,
};

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  retry?: Partial<RetryPolicy> | false;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  json: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface HttpClientOptions {
  dispatcher?: Dispatcher;
  /** Waits between retries; tests inject one that records the delays. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** setTimeout as a promise that an abort ends early (the caller then sees the abort). */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    // Aborted once the time is up: takes the abort listener off the caller's signal.
    const listening = new AbortController();
    const timer = setTimeout(() => {
      listening.abort();
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    signal?.addEventListener('abort', onAbort, { once: true, signal: listening.signal });
  });
}

/** Strip the query (it may carry ids) and any userinfo from a URL for messages. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

export class HttpClient {
  readonly dispatcher: Dispatcher;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;

  constructor(opts: HttpClientOptions = {}) {
    this.dispatcher =
      opts.dispatcher ??
      new Agent({
        connections: 16,
        keepAliveTimeout: 30_000,
        connect: { timeout: 10_000 },
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
    this.sleep = opts.sleep ?? abortableSleep;
    this.random = opts.random ?? Math.random;
  }

  /** One request with retries; resolves for 2xx, throws HttpError/NetworkError otherwise. */
  async requestJson(req: HttpRequest): Promise<HttpResponse> {
    const policy =
      req.retry === false ? { ...DEFAULT_RETRY, attempts: 1 } : { ...DEFAULT_RETRY, ...req.retry };
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      let delay: number;
      try {
        req.signal?.throwIfAborted();
        return await this.once(req);
      } catch (err) {
        const retriable =
          err instanceof NetworkError ||
          (err instanceof HttpError && (err.status >= 500 || err.status === 429));
        if (!retriable || attempt >= policy.attempts || req.signal?.aborted) throw err;
        delay = backoffDelay(
          {
            baseMs: policy.baseMs,
            maxMs: policy.maxDelayMs,
            jitter: 'full',
            maxRetryAfterMs: policy.maxRetryAfterMs,
          },
          attempt - 1,
          { retryAfterMs: retryAfterOf(err), random: this.random },
        );
        if (waited + delay > policy.maxTotalDelayMs) throw err;
      }
      waited += delay;
      await this.sleep(delay, req.signal);
    }
  }

  private async once(req: HttpRequest): Promise<HttpResponse> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(req.url, {
        method: req.method ?? 'GET',
        headers: { accept: 'application/json', ...req.headers },
        body: req.body,
        dispatcher: this.dispatcher,
        signal: req.signal,
      });
    } catch (err) {
      if (err instanceof undiciErrors.RequestAbortedError) throw err;
      throw new NetworkError(safeUrl(req.url), err);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw new NetworkError(safeUrl(req.url), err);
    }
    let json: unknown = null;
    if (text.length > 0) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      throw new HttpError(
        res.statusCode,
        safeUrl(req.url),
        text.slice(0, 200).replace(/\s+/g, ' '),
        json,
        res.headers,
      );
    }
    if (json === undefined) {
      throw new HttpError(
        res.statusCode,
        safeUrl(req.url),
        'response is not JSON',
        null,
        res.headers,
      );
    }
    return { status: res.statusCode, json, headers: res.headers };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

let shared: HttpClient | null = null;

/** The process-wide client: one keep-alive connection pool for tokens and APIs alike. */
export function defaultHttpClient(): HttpClient {
  shared ??= new HttpClient();
  return shared;
}
