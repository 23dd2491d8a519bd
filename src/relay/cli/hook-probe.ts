/**
 * Whether the running relay accepts a webhook secret, asked without storing anything: a
 * GET of <public-url>/hooks/<secret> answers 405 (POST only) for a secret the node accepts
 * and 404 for any other (routes/ingest.ts). Asked several times in a row, so a proxy that
 * spreads requests over the nodes (deploy/nginx.conf: round robin) asks each of them.
 * `register` and `rotate-secret` ask before they point the service at a URL.
 */
import { request } from 'undici';

export type ProbeResult = { ok: true } | { ok: false; reason: string };

/** How many answers in a row must say "accepted" (two nodes, each asked twice). */
const TRIES = 4;

async function askOnce(url: string): Promise<ProbeResult> {
  try {
    const res = await request(url, { method: 'GET', headersTimeout: 5000, bodyTimeout: 5000 });
    await res.body.dump();
    if (res.statusCode === 405) return { ok: true };
    if (res.statusCode === 404)
      return { ok: false, reason: 'answers 404: the running relay does not accept this secret' };
    return { ok: false, reason: `answers HTTP ${res.statusCode}, not the relay's 405 for GET` };
  } catch (err) {
    return { ok: false, reason: `does not answer (${(err as Error).message})` };
  }
}

/** Every one of TRIES requests to `<publicUrl>/hooks/<secret>` says the secret is accepted. */
export async function relayAccepts(publicUrl: string, secret: string): Promise<ProbeResult> {
  const url = `${publicUrl.replace(/\/+$/, '')}/hooks/${encodeURIComponent(secret)}`;
  for (let i = 0; i < TRIES; i++) {
    const answer = await askOnce(url);
    if (!answer.ok) return answer;
  }
  return { ok: true };
}

/** Asks until accepted (the nodes pick up a rotated secret within a second) or `timeoutMs`. */
export async function waitUntilAccepted(
  publicUrl: string,
  secret: string,
  timeoutMs = 15_000,
): Promise<ProbeResult> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const answer = await relayAccepts(publicUrl, secret);
    if (answer.ok || Date.now() >= until) return answer;
    await new Promise((r) => setTimeout(r, 250));
  }
}
