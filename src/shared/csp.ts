/**
 * The renderer's Content-Security-Policy, sent as a header by every host that serves it:
 * the Electron app:// protocol, the dev server (through the session) and web mode.
 * index.html carries the same policy in a <meta> (minus frame-ancestors, which a meta
 * cannot set); a test keeps the two equal.
 */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
