/**
 * Desk mode: no provider key and no service access token on this machine. The app reads
 * the service through the desk relay's gateway (`{relay}/service/calendar`,
 * `{relay}/service/news`) with the trader's personal token as its bearer; the relay
 * reads the service with its own token, which never leaves it. The "token" the token
 * manager caches here is the personal token itself, checked with one cheap read through
 * the gateway so a mistyped or revoked token is reported as such. The connection is
 * "desk" when the settings say so, or — for headless and web hosts — when
 * MACROBELL_RELAY_URL and MACROBELL_RELAY_TOKEN are set and no keys are stored.
 */
import type { Scope, ServiceUrls, Settings } from '../../shared/domain.js';
import { defaultHttpClient, type HttpClient, type HttpError } from '../../node/http/client.js';
import { AuthError, tokenRequestError, type Refusal } from '../../node/oauth/errors.js';
import type { TokenGrant, TokenSource } from '../../node/oauth/token-source.js';
import { failoverHttp, relayNodes } from './relay-failover.js';

interface DeskGatewaySourceOptions {
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
  404: 'The desk relay has no read gateway (/service/…): it is older than this app. Ask your desk administrator to update it.',
};

/** Cheap reads the relay keeps for minutes: they prove the gateway takes the token. */
const PROBES: Record<Scope, string> = {
  calendar: '/service/calendar/en/api/v1/categories',
  news: '/service/news/v4/en-US/post/filter/GeneralFeed?page=1',
};

/** The personal token is long-lived; re-checked every so often all the same. */
const CHECK_EVERY_SEC = 3600;

const trimmed = (url: string) => url.replace(/\/+$/, '');

/** Where the API clients send their reads in desk mode. */
export function gatewayUrls(relayUrl: string): Pick<ServiceUrls, 'calendar' | 'news'> {
  return {
    calendar: `${trimmed(relayUrl)}/service/calendar`,
    news: `${trimmed(relayUrl)}/service/news`,
  };
}

/** The relay's refusal of the personal token, in words for a trader. */
function relayRefusal(err: HttpError): Refusal {
  const answer = err.json as { error?: unknown; message?: unknown } | null;
  const relayMessage = answer?.message;
  const message =
    RELAY_ERROR_MESSAGES[String(answer?.error)] ??
    RELAY_MESSAGES[err.status] ??
    (typeof relayMessage === 'string'
      ? `The desk relay answered HTTP ${err.status}: ${relayMessage.slice(0, 300)}`
      : `The desk relay answered HTTP ${err.status}.`);
  return { code: `relay_${err.status}`, message };
}

function deskGatewaySource(opts: DeskGatewaySourceOptions): TokenSource {
  const http = opts.http ?? defaultHttpClient();
  return async (scope: Scope): Promise<TokenGrant> => {
    const relayUrl = opts.relayUrl(); // the node that answered last (relay-failover.ts)
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
      await http.requestJson({
        method: 'GET',
        url: `${trimmed(relayUrl)}${PROBES[scope]}`,
        headers: { authorization: `Bearer ${token}` },
        // The token manager's callers retry on their own schedule; a 503 without keys
        // never heals by itself.
        retry: false,
      });
    } catch (err) {
      throw tokenRequestError(err, scope, { name: 'the desk relay', explain: relayRefusal });
    }
    return { accessToken: token, tokenType: 'Bearer', expiresInSec: CHECK_EVERY_SEC };
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
  /** The personal token in desk mode (checked by the gateway), else `keys`' access tokens. */
  source(keys: TokenSource): TokenSource;
  isDesk(): boolean;
  /** Settings as shown: a desk started from the environment shows as "desk". */
  view(settings: Settings): Settings;
  /** The personal/relay token: the keychain's, else MACROBELL_RELAY_TOKEN. */
  relayToken(): Promise<string | null>;
  /** The HTTP client for the API clients: a read to one relay node fails over to the others. */
  http: HttpClient;
  /** Where the API clients read: the relay's gateway in desk mode, else the service. */
  apiUrls(effective: ServiceUrls): ServiceUrls;
  /** What "Test connection" says on success in desk mode (undefined: the keys' wording). */
  testMessage(scope: Scope): string | undefined;
}

export function createDeskConnection(opts: DeskConnectionOptions): DeskConnection {
  const envToken = opts.env.MACROBELL_RELAY_TOKEN?.trim() || null;
  const envDesk = Boolean(opts.env.MACROBELL_RELAY_URL && envToken && !opts.keysStored);
  // The keychain's token first; an unreadable keychain falls back to an explicit env token
  // only, else its error reaches the stream's status (never a silent "no token").
  const relayToken = async () => {
    try {
      return (await opts.keychainToken()) ?? envToken;
    } catch (err) {
      if (envToken) return envToken;
      throw err;
    }
  };
  const isDesk = () => envDesk || opts.settings().connection === 'desk';
  // The relay setting may list several nodes: reads go to the one that answers.
  const nodes = relayNodes(() => opts.settings().relayUrl, opts.http ?? defaultHttpClient());
  const http = failoverHttp(nodes, opts.http ?? defaultHttpClient());
  const desk = deskGatewaySource({ relayUrl: () => nodes.preferred(), relayToken, http });
  return {
    isDesk,
    relayToken,
    view: (s) => (envDesk ? { ...s, connection: 'desk' } : s),
    source: (keys) => (scope) => (isDesk() ? desk(scope) : keys(scope)),
    http,
    apiUrls: (urls) => {
      const relayUrl = nodes.preferred();
      return isDesk() && relayUrl ? { ...urls, ...gatewayUrls(relayUrl) } : urls;
    },
    testMessage: (scope) =>
      isDesk()
        ? `Connected: the desk relay at ${opts.settings().relayUrl ?? 'MACROBELL_RELAY_URL'} answered a ${scope} read with your personal token (the service's token stays on the relay).`
        : undefined,
  };
}
