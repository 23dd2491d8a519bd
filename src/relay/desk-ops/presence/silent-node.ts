/**
 * Why a node of the desk stopped reporting, asked of the node itself: its /healthz at the
 * address it reported. A node cut off from Redis still answers (503 with its reason); a dead
 * one does not. Only GET /healthz, a short timeout, a few KB read, the reason cut to one line
 * — the address comes from the shared store, so nothing else is trusted from it.
 */
import { request } from 'undici';
import { withoutControls } from '../../../shared/plain-text.js';

const ORIGIN = /^https?:\/\/[^\s/?#@]+$/;
const MAX_BODY = 4096;

/** Plain words, or null when the node reported no address (an older relay). */
export async function silentNodeReason(
  url: string | undefined,
  timeoutMs = 2_000,
): Promise<string | null> {
  if (url === undefined || !ORIGIN.test(url)) return null;
  try {
    const res = await request(`${url}/healthz`, {
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    let text = '';
    for await (const chunk of res.body) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length > MAX_BODY) break;
    }
    res.body.destroy();
    const reason = healthReason(text);
    if (res.statusCode === 503) return `it cannot reach the store${reason ? `: ${reason}` : ''}`;
    if (res.statusCode === 200) return 'it answers, but its reports do not reach the store';
    return `it answers HTTP ${res.statusCode}`;
  } catch {
    return 'it does not answer: down';
  }
}

function healthReason(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    const reason = typeof body === 'object' && body !== null && 'reason' in body && body.reason;
    if (typeof reason !== 'string') return null;
    return withoutControls(reason).slice(0, 200);
  } catch {
    return null;
  }
}

/** The address other nodes reach this one at (a wildcard host: this machine's name). */
export function reachableNodeUrl(host: string, port: number, machine: string): string {
  const name = host === '0.0.0.0' || host === '' || host === '::' ? machine : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}
