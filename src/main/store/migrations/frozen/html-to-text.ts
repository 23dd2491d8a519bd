/**
 * Frozen copy of `htmlToText` (src/shared/html-text.ts, one-line form) as migrations 006 and
 * 008 shipped with it. Never edit: a migration must write what it wrote when it shipped,
 * whatever the live helper becomes. A later migration that needs other rules adds a file.
 */
import { decodeHTML } from 'entities';

const BLOCK = /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|blockquote|section|article)\b[^>]*>/gi;

/** HTML → one line of plain text: tags out, then every entity decoded, whitespace folded. */
export function htmlToTextV1(html: string): string {
  const text = html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ');
  return decodeHTML(text.replace(BLOCK, ' ').replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}
