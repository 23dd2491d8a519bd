/**
 * Frozen copy of `searchColumns` (src/main/store/html-text.ts) as migrations 004, 006 and
 * 008 shipped with it. Never edit (see html-to-text.ts).
 */
import { htmlToTextV1 } from './html-to-text.js';

/** The fields of a cached post (its `record` JSON) the search index reads. */
export interface IndexedPostV1 {
  title: string;
  summary: string | null;
  contentHtml: string;
}

// Control characters never belong in indexed text, and \x01/\x02 mark snippet matches.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f]/g;

/** The three searchable columns of a post, as plain text. */
export function searchColumnsV1(p: IndexedPostV1): [title: string, summary: string, body: string] {
  const clean = (s: string) => s.replace(CONTROL_CHARS, ' ');
  return [
    clean(p.title),
    clean(p.summary ? htmlToTextV1(p.summary) : ''),
    clean(htmlToTextV1(p.contentHtml)),
  ];
}
