/**
 * Desk mode on the relay: who a bearer token belongs to (per-user tokens, the legacy
 * single token), `POST /token`, and revocation that reaches a running relay within a
 * second — a revoked user's requests get 401 at once and their open streams are closed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Credentials } from '../../node/oauth/client-credentials.js';
import { TokenManager } from '../../node/oauth/token-manager.js';
import { bearerToken, constantTimeEqual, tokenHash } from '../../node/security/compare.js';
import { RelayErrors } from '../errors.js';
import type { DeskLimits } from './desk-limits.js';
import type { RotatedSecrets } from '../ingest/rotated-secrets.js';
import { RateLimiter } from './rate-limit.js';
import { createTokenEndpoint } from './token-endpoint.js';
import { UserStreams } from '../stream/user-streams.js';
import { LEGACY_USER, type UserStore } from '../users/user-store.js';

export interface DeskOptions {
  dataDir: string;
  /** The desk's users: the relay database's, or Redis's shared by every node. */
  users: UserStore;
  /** MACROBELL_RELAY_TOKEN / relay-secrets.json: the single user of older installs. */
  legacyToken: string | null;
  /** The provider keys (or how to read them now); null = /token answers 501. */
  keys: Credentials | null | (() => Credentials | null);
  authUrl: string;
  /** Token requests per minute per user (the burst allows as many at once). */
  tokenRatePerMinute?: number;
  /**
   * `POST /token` hands traders service access tokens (which reach the whole account,
   * webhook management included). Off by default: traders read through the gateway.
   */
  issueServiceTokens?: boolean;
  /** Where the desk-wide caps are kept (this node's memory, or the desk's Redis). */
  limits: DeskLimits;
  /** Webhook secrets a rotation added since start (closed with the desk). */
  rotated: RotatedSecrets;
  /** Open streams per user across the desk (default 5); past it, 429. */
  maxStreamsPerUser?: number;
  /**
   * Set when the store is known to have lost its data (redis-generation.ts): a token it
   * does not know is then answered 503 store_lost, never 401 "revoked".
   */
  storeLost?: () => unknown;
  /**
   * Open streams of the legacy single token across the desk (default 100, or the per-user
   * cap when higher): it is every desktop of an older install at once, so it gets more,
   * but not without end.
   */
  maxLegacyStreams?: number;
  /** How often open streams are checked against revocations. */
  revocationCheckMs?: number;
  logger?: Logger;
  now?: () => number;
}

export interface Desk {
  /** The user behind the request's bearer token, or null (rejects when the store is away). */
  authenticate(req: IncomingMessage): Promise<string | null>;
  token(req: IncomingMessage, res: ServerResponse, user: string): Promise<void>;
  /** Access tokens with the desk's current keys, or null when the relay has none. */
  tokens(): TokenManager | null;
  /**
   * Remember an open stream so revoking its user closes it; false (nothing remembered)
   * when the user already has as many open on the desk as allowed.
   */
  trackStream(user: string, res: ServerResponse): Promise<boolean>;
  /** How many streams `user` may hold open on the desk. */
  maxStreams(user: string): number;
  readonly limits: DeskLimits;
  /** A webhook secret `relay rotate-secret` added after this relay started. */
  isRotatedSecret(segment: string): boolean;
  close(): Promise<void>;
}

/** One token manager per set of keys: new keys never get a token cached for the old ones. */
function keyedTokens(opts: DeskOptions, now: () => number): () => TokenManager | null {
  const keysNow =
    typeof opts.keys === 'function' ? opts.keys : () => opts.keys as Credentials | null;
  let current: { fingerprint: string; manager: TokenManager } | null = null;
  return () => {
    const keys = keysNow();
    if (!keys) return (current = null);
    const fingerprint = tokenHash(`${keys.publicKey}\n${keys.privateKey}`);
    if (current?.fingerprint !== fingerprint) {
      if (current) opts.logger?.info({ audit: 'provider_keys_changed' }, 'provider keys reloaded');
      current = {
        fingerprint,
        manager: new TokenManager({
          authUrl: () => opts.authUrl,
          credentials: async () => keys,
          now,
        }),
      };
    }
    return current.manager;
  };
}

export function startDesk(opts: DeskOptions): Desk {
  const now = opts.now ?? Date.now;
  const { users, legacyToken } = opts;
  const tokens = keyedTokens(opts, now);
  const rate = opts.tokenRatePerMinute ?? 60;
  const token = createTokenEndpoint({
    tokens,
    limiter: new RateLimiter(rate, rate, now),
    logger: opts.logger,
    now,
  });
  const maxStreamsPerUser = opts.maxStreamsPerUser ?? 5;
  const maxLegacyStreams = opts.maxLegacyStreams ?? Math.max(100, maxStreamsPerUser);
  const maxStreams = (user: string) =>
    user === LEGACY_USER ? maxLegacyStreams : maxStreamsPerUser;
  const streams = new UserStreams({
    users,
    limits: opts.limits,
    maxPerUser: maxStreams,
    checkEveryMs: opts.revocationCheckMs ?? 250,
    logger: opts.logger,
  });

  return {
    isRotatedSecret: (segment) => opts.rotated.accepts(segment),
    authenticate(req) {
      const presented = bearerToken(req);
      if (!presented) return Promise.resolve(null);
      if (legacyToken !== null && constantTimeEqual(presented, legacyToken))
        return Promise.resolve(LEGACY_USER);
      return users.authenticate(presented).then((user) => {
        if (user === null && opts.storeLost?.()) throw RelayErrors.STORE_LOST();
        return user;
      });
    },
    token,
    tokens,
    maxStreams,
    limits: opts.limits,
    trackStream: (user, res) => streams.track(user, res),
    async close() {
      streams.stop();
      await opts.rotated.close();
      await opts.limits.close();
      await users.close();
    },
  };
}
