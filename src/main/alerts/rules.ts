/** Which changes alert, by the user's rules, and when to stay silent. Pure. */
import { matchesEventDate } from '../../shared/alert-match.js';
import type { AlertRules, Post } from '../../shared/domain.js';
import { wallClock } from './zone.js';

export { matchesEventDate };

/** Whole-word-ish, case-insensitive: "Fed" matches "Fed hikes" but not "Federal". */
function containsWord(text: string, keyword: string): boolean {
  const k = keyword.trim().toLowerCase();
  if (!k) return false;
  const escaped = k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(
    text.toLowerCase(),
  );
}

/**
 * A post alerts when news alerts are on and one of the keywords is in its title or
 * summary, or it carries one of the categories (or tags). No keywords and no categories:
 * no news alerts, rather than every post.
 */
export function matchesPost(post: Post, rules: AlertRules): boolean {
  if (!rules.newsEnabled) return false;
  const text = `${post.title} ${post.summary ?? ''}`;
  if (rules.newsKeywords.some((k) => containsWord(text, k))) return true;
  const cats = new Set([...post.categories, ...post.tags].map((c) => c.trim().toLowerCase()));
  return rules.newsCategories.some((c) => cats.has(c.trim().toLowerCase()));
}

function minutesOf(hhmm: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/**
 * Whether `at` (ms) falls in the quiet hours, judged on the wall clock of their zone
 * ("system" = the app's zone), so a window such as 22:00–07:00 crosses midnight and
 * keeps its local meaning across DST changes.
 */
export function inQuietHours(at: number, rules: AlertRules, appZone: string): boolean {
  const q = rules.quietHours;
  if (!q.enabled) return false;
  const start = minutesOf(q.start);
  const end = minutesOf(q.end);
  if (start === null || end === null || start === end) return false;
  const local = wallClock(at, q.timeZone === 'system' ? appZone : q.timeZone);
  const now = local.hour * 60 + local.minute;
  return start < end ? now >= start && now < end : now >= start || now < end;
}
