/**
 * Client-credentials tokens per scope: cached in memory, refreshed ahead of expiry, one
 * exchange in flight per scope shared by every caller, dropped at once when the
 * credentials change (an exchange started before that is discarded).
 */
import { z } from 'zod';
import type { Scope, TokenState } from '../../shared/domain.js';
import { oauthErrorSchema, tokenResponseSchema } from '../../shared/wire.js';
import { defaultHttpClient, HttpError, NetworkError, type HttpClient } from '../http/client.js';
import { scrubSecrets } from '../log/logger.js';
import { AuthError } from './errors.js';

const scopeSchema = z.enum(['calendar', 'news']);

/** Scopes arrive from IPC too: a wrong one is a clear error, not an odd token request. */
function checkScope(scope: unknown): asserts scope is Scope {
  const r = scopeSchema.safeParse(scope);
  if (!r.success)
    throw new AuthError(
      'invalid_scope',
      String(scope),
      null,
      null,
      `Unknown API scope "${String(scope).slice(0, 40)}": expected calendar or news.`,
    );
}

export interface Credentials {
  publicKey: string;
  privateKey: string;
}

export interface TokenManagerOptions {
  authUrl: () => string;
  credentials: () => Promise<Credentials | null>;
  http?: HttpClient;
  /** Refresh this long before expiry. */
  refreshAheadSec?: number;
  now?: () => number;
}

interface Cached {
  authorization: string;
  expiresAt: number;
  /** Ahead of expiry by the configured margin, at most a tenth of the lifetime. */
  refreshAt: number;
}

export class TokenManager {
  private readonly cache = new Map<Scope, Cached>();
  private readonly inflight = new Map<Scope, Promise<Cached>>();
  private readonly states = new Map<Scope, TokenState>();
  private readonly listeners = new Set<(scope: Scope, state: TokenState) => void>();
  private generation = 0;
  private readonly http: HttpClient;
  private readonly now: () => number;
  private readonly refreshAheadMs: number;

  constructor(private readonly opts: TokenManagerOptions) {
    this.http = opts.http ?? defaultHttpClient();
    this.now = opts.now ?? Date.now;
    this.refreshAheadMs = (opts.refreshAheadSec ?? 300) * 1000;
  }

  /** `<token_type> <access_token>` for the Authorization header. */
  async getAuthorization(scope: Scope): Promise<string> {
    checkScope(scope);
    // A clear() while we wait means the keys changed: that answer is stale, ask again
    // with the new keys (bounded: keys do not change three times during one exchange).
    for (let round = 0; round < 3; round++) {
      const generation = this.generation;
      const cached = this.cache.get(scope);
      const now = this.now();
      if (cached && now < cached.refreshAt) return cached.authorization;
      if (cached && now < cached.expiresAt) {
        // Still valid: refresh in the background, answer with the current one.
        void this.exchange(scope).catch(() => undefined);
        return cached.authorization;
      }
      try {
        const token = await this.exchange(scope);
        if (generation === this.generation) return token.authorization;
      } catch (err) {
        if (generation === this.generation) throw err;
      }
    }
    throw new AuthError(
      'credentials_changed',
      scope,
      null,
      null,
      'The API keys changed while connecting. Try again.',
    );
  }

  invalidate(scope: Scope): void {
    checkScope(scope);
    this.cache.delete(scope);
    this.setState(scope, 'none');
  }

  /** Credentials or URLs changed: forget every token now. */
  clear(): void {
    this.generation++;
    this.cache.clear();
    this.inflight.clear();
    for (const s of ['calendar', 'news'] as Scope[]) this.setState(s, 'none');
  }

  state(scope: Scope): TokenState {
    checkScope(scope);
    return this.states.get(scope) ?? 'none';
  }

  onStateChange(listener: (scope: Scope, state: TokenState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A fresh exchange for "Test connection". */
  async test(scope: Scope): Promise<{ ok: boolean; message: string }> {
    try {
      this.invalidate(scope);
      await this.getAuthorization(scope);
      return { ok: true, message: `Connected: the ${scope} API accepted the keys.` };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  }

  private exchange(scope: Scope): Promise<Cached> {
    const running = this.inflight.get(scope);
    if (running) return running;
    const generation = this.generation;
    this.setState(scope, 'refreshing');
    const p = this.fetchToken(scope)
      .then((token) => {
        if (generation === this.generation) {
          this.cache.set(scope, token);
          this.setState(scope, 'valid');
        }
        return token;
      })
      .catch((err: unknown) => {
        if (generation === this.generation) this.setState(scope, 'error');
        throw err;
      })
      .finally(() => {
        if (this.inflight.get(scope) === p) this.inflight.delete(scope);
      });
    this.inflight.set(scope, p);
    return p;
  }

  private async fetchToken(scope: Scope): Promise<Cached> {
    const creds = await this.opts.credentials();
    if (!creds) throw new AuthError('no_credentials', scope, null, null);
    const url = `${this.opts.authUrl().replace(/\/+$/, '')}/v2/token`;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: creds.publicKey,
      client_secret: creds.privateKey,
      scope,
    }).toString();
    let json: unknown;
    try {
      ({ json } = await this.http.requestJson({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }));
    } catch (err) {
      if (err instanceof HttpError) {
        const oauth = oauthErrorSchema.safeParse(err.json);
        if (oauth.success) {
          // The description is the server's text: make sure it cannot echo a key back.
          const description = oauth.data.error_description
            ? scrubSecrets(oauth.data.error_description, [creds.publicKey, creds.privateKey])
            : null;
          throw new AuthError(oauth.data.error, scope, err.status, description);
        }
        throw new AuthError(
          'server',
          scope,
          err.status,
          null,
          `The token service answered HTTP ${err.status}.`,
        );
      }
      if (err instanceof NetworkError)
        throw new AuthError(
          'network',
          scope,
          null,
          null,
          `Cannot reach the token service: ${err.message}`,
        );
      throw err;
    }
    const parsed = tokenResponseSchema.safeParse(json);
    if (!parsed.success)
      throw new AuthError(
        'bad_response',
        scope,
        200,
        null,
        'The token service sent a response without a usable token.',
      );
    const received = this.now();
    const lifetimeMs = parsed.data.expires_in * 1000;
    return {
      authorization: `${parsed.data.token_type} ${parsed.data.access_token}`,
      expiresAt: received + lifetimeMs,
      refreshAt: received + lifetimeMs - Math.min(this.refreshAheadMs, lifetimeMs / 10),
    };
  }

  private setState(scope: Scope, state: TokenState): void {
    if ((this.states.get(scope) ?? 'none') === state) return; // no news, no notification
    this.states.set(scope, state);
    this.listeners.forEach((l) => l(scope, state));
  }
}
