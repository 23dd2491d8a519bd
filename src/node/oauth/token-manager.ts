/**
 * Client-credentials tokens per scope: cached in memory, refreshed ahead of expiry, one
 * exchange in flight per scope shared by every caller, dropped at once when the
 * credentials change (an exchange started before that is discarded).
 */
import { z } from 'zod';
import type { Scope, TokenState } from '../../shared/domain.js';
import { clientCredentialsSource, type ClientCredentialsOptions } from './client-credentials.js';
import { AuthError } from './errors.js';
import type { TokenSource } from './token-source.js';
import { messageOf } from '../../shared/error-message.js';
import { Emitter } from '../../shared/event.js';

export type { Credentials } from './client-credentials.js';
export type { TokenSource } from './token-source.js';

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

/** Either the client-credentials exchange (keys) or any other source of fresh tokens. */
export type TokenManagerOptions = (ClientCredentialsOptions | { source: TokenSource }) & {
  /** Refresh this long before expiry. */
  refreshAheadSec?: number;
  now?: () => number;
};

/** A cached token: what the relay hands out, and what the app puts in its headers. */
export interface CachedToken {
  accessToken: string;
  tokenType: string;
  expiresAt: number;
}

interface Cached extends CachedToken {
  authorization: string;
  expiresAt: number;
  /** Ahead of expiry by the configured margin, at most a tenth of the lifetime. */
  refreshAt: number;
}

export class TokenManager {
  private readonly cache = new Map<Scope, Cached>();
  private readonly inflight = new Map<Scope, Promise<Cached>>();
  private readonly states = new Map<Scope, TokenState>();
  /** A listener that throws is isolated: it cannot fail the token request that changed the state. */
  private readonly stateChanged = new Emitter<{ scope: Scope; state: TokenState }>({
    name: 'TokenManager.onStateChange',
  });
  private generation = 0;
  private readonly source: TokenSource;
  private readonly now: () => number;
  private readonly refreshAheadMs: number;

  constructor(private readonly opts: TokenManagerOptions) {
    this.source = 'source' in opts ? opts.source : clientCredentialsSource(opts);
    this.now = opts.now ?? Date.now;
    this.refreshAheadMs = (opts.refreshAheadSec ?? 300) * 1000;
  }

  /** `<token_type> <access_token>` for the Authorization header. */
  async getAuthorization(scope: Scope): Promise<string> {
    return (await this.getToken(scope)).authorization;
  }

  /** The scope's current token (cached, refreshed ahead of expiry, one exchange at a time). */
  async getToken(scope: Scope): Promise<Cached> {
    checkScope(scope);
    // A clear() while we wait means the keys changed: that answer is stale, ask again
    // with the new keys (bounded: keys do not change three times during one exchange).
    for (let round = 0; round < 3; round++) {
      const generation = this.generation;
      const cached = this.cache.get(scope);
      const now = this.now();
      if (cached && now < cached.refreshAt) return cached;
      if (cached && now < cached.expiresAt) {
        // Still valid: refresh in the background, answer with the current one.
        void this.exchange(scope).catch(() => undefined);
        return cached;
      }
      try {
        const token = await this.exchange(scope);
        if (generation === this.generation) return token;
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
    const subscription = this.stateChanged.event((c) => listener(c.scope, c.state));
    return () => subscription.dispose();
  }

  /** A fresh exchange for "Test connection"; `okMessage` names who gave the token. */
  async test(scope: Scope, okMessage?: string): Promise<{ ok: boolean; message: string }> {
    try {
      this.invalidate(scope);
      await this.getAuthorization(scope);
      return { ok: true, message: okMessage ?? `Connected: the ${scope} API accepted the keys.` };
    } catch (err) {
      return { ok: false, message: messageOf(err) };
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
    const grant = await this.source(scope);
    const received = this.now();
    const lifetimeMs = grant.expiresInSec * 1000;
    return {
      accessToken: grant.accessToken,
      tokenType: grant.tokenType,
      authorization: `${grant.tokenType} ${grant.accessToken}`,
      expiresAt: received + lifetimeMs,
      refreshAt: received + lifetimeMs - Math.min(this.refreshAheadMs, lifetimeMs / 10),
    };
  }

  private setState(scope: Scope, state: TokenState): void {
    if ((this.states.get(scope) ?? 'none') === state) return; // no news, no notification
    this.states.set(scope, state);
    this.stateChanged.fire({ scope, state });
  }
}
