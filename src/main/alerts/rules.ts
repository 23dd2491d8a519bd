/** Which changes alert, by the user's rules. Pure. */
import type { AlertableChange, AlertRules, EventDate, Post } from '../../shared/domain.js';
import { atLeastVolatility } from '../../shared/format.js';

/** Watched events always match (if that kind of change is on); others by impact and place. */
export function matchesEventDate(ed: EventDate, rules: AlertRules, kind: AlertableChange): boolean {
  if (!rules.changes[kind]) return false;
  if (rules.watchedEventIds.includes(ed.eventId)) return true;
  return (
    atLeastVolatility(ed.volatility, rules.minVolatility) &&
    (rules.countries.length === 0 || rules.countries.includes(ed.countryCode)) &&
    (rules.currencies.length === 0 || rules.currencies.includes(ed.currencyCode))
  );
}

function containsWord(text: string, keyword: string): boolean {
  const k = keyword.trim().toLowerCase();
  if (!k) return false;
  const escaped = k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(
    text.toLowerCase(),
  );
}

/** A post alerts when news alerts are on and a keyword or a category matches. */
export function matchesPost(post: Post, rules: AlertRules): boolean {
  if (!rules.newsEnabled) return false;
  const text = `${post.title} ${post.summary ?? ''}`;
  if (rules.newsKeywords.some((k) => containsWord(text, k))) return true;
  const cats = new Set([...post.categories, ...post.tags].map((c) => c.toLowerCase()));
  return rules.newsCategories.some((c) => cats.has(c.toLowerCase()));
}

/** Whether `at` (ms) falls in the quiet hours, in their time zone; windows may cross midnight. */
export function inQuietHours(at: number, rules: AlertRules, localZone: string): boolean {
  const q = rules.quietHours;
  if (!q.enabled) return false;
  const zone = q.timeZone === 'system' ? localZone : q.timeZone;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const hh = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const mm = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  const now = hh * 60 + mm;
  const toMin = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
  const start = toMin(q.start);
  const end = toMin(q.end);
  if (start === end) return false;
  return start < end ? now >= start && now < end : now >= start || now < end;
}
