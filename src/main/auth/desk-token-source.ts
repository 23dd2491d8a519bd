/**
 * Desk mode: no provider key on this machine. Access tokens come from the desk relay's
 * `POST /token` with the trader's personal token; the token manager caches and refreshes
 * them exactly as it does tokens got with keys. The connection is "desk" when the settings
 * say so, or — for headless and web hosts — when MACROBELL_RELAY_URL and
 * MACROBELL_RELAY_TOKEN are set and no keys are stored.
 */
import type { Scope, Settings } from '../../shared/domain.js';
import {
  defaultHttpClient,
  HttpError,
  NetworkError,
  type HttpClient,
} from '../../node/http/client.js';
import { parseGrant } from '../../node/oauth/client-credentials.js';
import { AuthError } from '../../node/oauth/errors.js';
import type { TokenGrant, TokenSource } from '../../node/oauth/token-source.js';

interface DeskRelaySourceOptions {
  relayUrl: () => string | null;
  relayToken: () => Promise<string | null>;
  http?: HttpClient;
}

/** The relay's error codes that mean something a trader should read differently. */
const RELAY_ERROR_MESSAGES: Record<string, string> = {
  upstream_invalid_client:
    "The service refused the desk relay's provider keys (invalid_client). Ask your desk administrator to fix the keys on the relay: nothing in your Settings can.",
};

const RELAY_MESSAGES: Record<number, string> = {
  401: 'The desk relay refused your personal token (mistyped or revoked). Ask your desk administrator for a new one.',
  429: 'The desk relay is limiting token requests: try again in a minute.',
};

function deskRelaySource(opts: DeskRelaySourceOptions): TokenSource {
  const http = opts.http ?? defaultHttpClient();
  return async (scope: Scope): Promise<TokenGrant> => {
    const relayUrl = opts.relayUrl();
    const token = await opts.relayToken();
    if (!relayUrl || !token)
      throw new AuthError(
        'no_credentials',
        scope,
        null,
        null,
        'Desk relay mode needs the relay URL and your personal token: enter both in Settings → Connection.',
      );
    try {
      const { json } = await http.requestJson({
        method: 'POST',
        url: `${relayUrl.replace(/\/+$/, '')}/token`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ scope }).toString(),
        // The token manager's callers retry on their own schedule; a 501 never heals by itself.
        retry: false,
      });
      return parseGrant(json, scope);
    } catch (err) {
      if (err instanceof HttpError) {
        const answer = err.json as { error?: unknown; message?: unknown } | null;
        const relayMessage = answer?.message;
        const message =
          RELAY_ERROR_MESSAGES[String(answer?.error)] ??
          RELAY_MESSAGES[err.status] ??
          (typeof relayMessage === 'string'
            ? `The desk relay answered HTTP ${err.status}: ${relayMessage.slice(0, 300)}`
            : `The desk relay answered HTTP ${err.status}.`);
        throw new AuthError(`relay_${err.status}`, scope, err.status, null, message);
      }
      if (err instanceof NetworkError)
        throw new AuthError(
          'network',
          scope,
          null,
          null,
          `Cannot reach the desk relay: ${err.message}`,
        );
      throw err;
    }
  };
}

export interface DeskConnectionOptions {
  settings: () => Settings;
  env: NodeJS.ProcessEnv;
  /** The personal token kept in the OS keychain. */
  keychainToken: () => Promise<string | null>;
  /** Whether provider keys were in the keychain when the app started. */
  keysStored: boolean;
  http?: HttpClient;
}

export interface DeskConnection {
  /** Tokens from the relay in desk mode, else from `keys` (the client-credentials source). */
  source(keys: TokenSource): TokenSource;
  isDesk(): boolean;
  /** Settings as shown: a desk started from the environment shows as "desk". */
  view(settings: Settings): Settings;
  /** The personal/relay token: the keychain's, else MACROBELL_RELAY_TOKEN. */
  relayToken(): Promise<string | null>;
  /** What "Test connection" says on success in desk mode (undefined: the keys' wording). */
  testMessage(scope: Scope): string | undefined;
}

export function createDeskConnection(opts: DeskConnectionOptions): DeskConnection {
  const envToken = opts.env.MACROBELL_RELAY_TOKEN?.trim() || null;
  const envDesk = Boolean(opts.env.MACROBELL_RELAY_URL && envToken && !opts.keysStored);
  const relayToken = async () => (await opts.keychainToken().catch(() => null)) ?? envToken;
  const isDesk = () => envDesk || opts.settings().connection === 'desk';
  const desk = deskRelaySource({
    relayUrl: () => opts.settings().relayUrl,
    relayToken,
    http: opts.http,
  });
  return {
    isDesk,
    relayToken,
    view: (s) => (envDesk ? { ...s, connection: 'desk' } : s),
    source: (keys) => (scope) => (isDesk() ? desk(scope) : keys(scope)),
    testMessage: (scope) =>
      isDesk()
        ? `Connected: the desk relay at ${opts.settings().relayUrl ?? 'MACROBELL_RELAY_URL'} handed out a ${scope} token for you.`
        : undefined,
  };
}
