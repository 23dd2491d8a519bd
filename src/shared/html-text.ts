/**
 * HTML → plain text, the one way the app does it: news titles and summaries as they enter,
 * the search index, release notes. Drops script/style/comments, turns block ends into
 * breaks, removes every other tag, then decodes every HTML entity (tags go first, so an
 * encoded `&lt;b&gt;` stays text).
 */
import { decodeHTML } from 'entities';

const BLOCK = /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|blockquote|section|article)\b[^>]*>/gi;

/**
 * `lines: true` keeps paragraphs and list items on their own lines (release notes);
 * otherwise all whitespace folds to single spaces (titles, summaries, the search index).
 */
export function htmlToText(html: string, opts: { lines?: boolean } = {}): string {
  let text = html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ');
  if (opts.lines) text = text.replace(/<li\b[^>]*>/gi, '\n• ');
  text = decodeHTML(text.replace(BLOCK, opts.lines ? '\n' : ' ').replace(/<[^>]*>/g, ''));
  if (!opts.lines) return text.replace(/\s+/g, ' ').trim();
  return text
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
