/**
 * Desk mode's reads over the documented HA list (`MACROBELL_RELAY_URL=url1,url2`, or the
 * same in Settings): the gateway of the node that answered last, and on a node that cannot
 * be reached or answers 502/503/504 (a proxy with no upstream, a relay whose store is
 * away), the next node of the list at once — the caller's retry policy applies to the last
 * node tried, so a dead node costs one refused connection, not a backoff.
 */
import {
  HttpClient as HttpClientBase,
  HttpError,
  NetworkError,
  type HttpClient,
  type HttpRequest,
} from '../../node/http/client.js';
import { parseRelayUrls } from '../../shared/relay-urls.js';

const trimmed = (url: string) => url.replace(/\/+$/, '');
const failsOver = (err: unknown) =>
  err instanceof NetworkError ||
  (err instanceof HttpError && (err.status === 502 || err.status === 503 || err.status === 504));

export interface RelayNodes {
  /** The node reads go to now (the last that answered; the first at start), or null. */
  preferred(): string | null;
  /** `req` on the node its URL names, then on each other node of the list in turn. */
  request: HttpClient['requestJson'];
}

export function relayNodes(setting: () => string | null, http: HttpClient): RelayNodes {
  let list: string[] = [];
  let listFor: string | null = null;
  let current = 0;
  const nodes = () => {
    const s = setting();
    if (s !== listFor) {
      listFor = s;
      list = s ? parseRelayUrls(s).map(trimmed) : [];
      current = 0;
    }
    return list;
  };
  return {
    preferred: () => nodes()[current] ?? null,
    async request(req: HttpRequest) {
      const all = nodes();
      const from = all.findIndex((n) => req.url.startsWith(`${n}/`));
      if (from < 0 || all.length < 2) return http.requestJson(req);
      const path = req.url.slice((all[from] as string).length);
      let last: unknown = null;
      for (let i = 0; i < all.length; i++) {
        const at = (from + i) % all.length;
        const isLast = i === all.length - 1;
        try {
          const res = await http.requestJson({
            ...req,
            url: `${all[at] as string}${path}`,
            ...(isLast ? {} : { retry: false }),
          });
          if (listFor === setting()) current = at;
          return res;
        } catch (err) {
          if (!failsOver(err) || req.signal?.aborted) throw err;
          last = err;
        }
      }
      throw last;
    },
  };
}

/** An HttpClient whose requests to a node of the list fail over to the others. */
export function failoverHttp(nodes: RelayNodes, inner: HttpClient): HttpClient {
  return new (class extends HttpClientBase {
    override requestJson(req: HttpRequest) {
      return nodes.request(req);
    }
  })({ dispatcher: inner.dispatcher });
}
