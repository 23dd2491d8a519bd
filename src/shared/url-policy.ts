/**
 * Which URLs may carry credentials: https anywhere, plain http only to this machine
 * (the simulator, a relay under test). Shared by the app's settings and the relay's flags.
 */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/** Null when `raw` is acceptable, else a message for the user. */
export function credentialUrlProblem(raw: string, what = 'URL'): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `The ${what} "${raw.slice(0, 100)}" is not a valid URL.`;
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return null;
    return `The ${what} must use https:// (plain http:// is only allowed for this machine — localhost or 127.0.0.1 — because keys and tokens would travel unencrypted).`;
  }
  return `The ${what} must be an https:// URL, got ${url.protocol}`;
}
