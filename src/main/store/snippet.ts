/**
 * Search snippets, built from the indexed text of the rows shown (20 at most) rather than
 * by FTS5's snippet(), which runs the whole MATCH again for every row (about 0.1 ms each,
 * a third of a search). Tokens are what FTS5's unicode61 tokenizer sees — runs of letters
 * and digits, compared without diacritics and case — so the words marked are the ones
 * that matched. The output carries \x01 / \x02 around matches, like snippet() did.
 */
import { foldToken, searchWords } from './html-text.js';

export const MARK_START = '\x01';
export const MARK_END = '\x02';
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** Whether a folded token matches the query: every word exactly, the last one as a prefix. */
export function queryMatcher(query: string): (folded: string) => boolean {
  // The same words toFtsQuery turned into the MATCH, folded as the tokenizer folds them.
  const words = searchWords(query).map(foldToken);
  const last = words.pop();
  const exact = new Set(words);
  return (t) => exact.has(t) || (last !== undefined && t.startsWith(last));
}

interface Hit {
  start: number;
  end: number;
  match: boolean;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;

function tokensOf(text: string, matches: (folded: string) => boolean): Hit[] {
  // Most news is ASCII: lower case is all the folding it needs (Unicode folding is slow).
  const fold = ASCII.test(text) ? (t: string) => t.toLowerCase() : foldToken;
  const out: Hit[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index ?? 0;
    out.push({ start, end: start + m[0].length, match: matches(fold(m[0])) });
  }
  return out;
}

/**
 * The best column (most matching tokens; the earlier column on a tie, title first) cut to
 * `maxTokens` tokens from a little before its first match, with "…" where text was cut.
 */
export function buildSnippet(
  columns: readonly string[],
  matches: (folded: string) => boolean,
  maxTokens = 16,
): string {
  let best: { text: string; tokens: Hit[]; hits: number } | null = null;
  for (const text of columns) {
    const tokens = tokensOf(text, matches);
    const hits = tokens.reduce((n, t) => n + (t.match ? 1 : 0), 0);
    if (!best || hits > best.hits) best = { text, tokens, hits };
  }
  if (!best || best.tokens.length === 0) return '';
  const { text, tokens } = best;
  const first = Math.max(
    0,
    tokens.findIndex((t) => t.match),
  );
  // A little context before the match; a window that runs past the end slides back.
  const from = Math.max(0, Math.min(first - 3, tokens.length - maxTokens));
  const to = Math.min(tokens.length, from + maxTokens);
  let out = from > 0 ? '…' : '';
  let at = from > 0 ? (tokens[from] as Hit).start : 0;
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Hit;
    out += text.slice(at, t.start);
    out += t.match
      ? MARK_START + text.slice(t.start, t.end) + MARK_END
      : text.slice(t.start, t.end);
    at = t.end;
  }
  return to < tokens.length ? `${out}…` : out + text.slice(at);
}
