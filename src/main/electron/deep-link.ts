/**
 * macrobell:// links (a shared link, a notification): what they open. Anything else in
 * them is refused — a link is untrusted input from any web page or chat.
 *   macrobell://event/<eventId>/<eventDateId>   an event's release
 *   macrobell://news/<culture>/<postId>         a news post
 *   macrobell://alerts | macrobell://settings | macrobell://open
 */
import type { PushPayloads } from '../../shared/ipc.js';

export const DEEP_LINK_SCHEME = 'macrobell';
type Target = PushPayloads['navigate'];

const ID = /^[A-Za-z0-9._:-]{1,200}$/;
const CULTURE = /^[a-z]{2}(-[A-Z]{2})?$/;

/** What the link opens: a screen, `{ type: 'open' }` for the window alone, or null if invalid. */
export function parseDeepLink(link: string): Target | { type: 'open' } | null {
  if (typeof link !== 'string' || link.length > 1000) return null;
  let u: URL;
  try {
    u = new URL(link);
  } catch {
    return null;
  }
  if (u.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
  // macrobell://event/a/b parses with host "event" and path "/a/b".
  let parts: string[];
  try {
    parts = [u.host, ...u.pathname.split('/')].filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
  const [kind, a, b, ...rest] = parts;
  if (rest.length > 0) return null;
  if (kind === 'event' && a && b && ID.test(a) && ID.test(b))
    return { type: 'eventDate', eventId: a, eventDateId: b };
  if (kind === 'news' && a && b && CULTURE.test(a) && ID.test(b))
    return { type: 'post', culture: a, postId: b };
  if (!a && kind === 'alerts') return { type: 'alerts' };
  if (!a && kind === 'settings') return { type: 'settings' };
  if (!a && kind === 'open') return { type: 'open' };
  return null;
}

/** The macrobell:// link in a command line (Windows and Linux pass it as an argument). */
export function deepLinkInArgv(argv: readonly string[]): string | null {
  return argv.find((a) => a.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`)) ?? null;
}
