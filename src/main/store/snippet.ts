/**
 * Search snippets, built from the indexed text of the rows shown (20 at most) rather than
 * by FTS5's snippet(), which runs the whole MATCH again for every row (about 0.1 ms each,
 * a third of a search). Tokens are what FTS5's unicode61 tokenizer sees — runs of letters
 * and digits, compared without diacritics and case — so the words marked are the ones
 * that matched. The output carries \x01 / \x02 around matches, like snippet() did.
 */
import { foldToken, searchTerms } from './html-text.js';

export const MARK_START = '\x01';
export const MARK_END = '\x02';
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Whether a folded token matches the query: every word exactly, the last one as a prefix.
 * `ascii` finds the same tokens in ASCII text with one native regex scan, so choosing the
 * best column costs no per-token work (most news is ASCII).
 */
export interface QueryMatcher {
  (folded: string): boolean;
  readonly ascii: RegExp | null;
  /** Words typed as one ("AT&T" → at, t): marked only where they stand side by side. */
  readonly phrases: readonly string[][];
  /** Whether a token matches only as part of such a phrase. */
  readonly phraseOnly: (folded: string) => boolean;
}

export function queryMatcher(query: string): QueryMatcher {
  // The same words toFtsQuery turned into the MATCH (aliases' phrases too), folded as the
  // tokenizer folds them.
  const { exact: plain, prefix: last, phrases } = searchTerms(query);
  const plainSet = new Set(plain);
  const alone = (t: string) => plainSet.has(t) || (last !== undefined && t.startsWith(last));
  const inPhrase = new Set(phrases.flat());
  const words = [...plainSet, ...inPhrase];
  const exact = new Set(words);
  const test = (t: string) => exact.has(t) || (last !== undefined && t.startsWith(last));
  // In ASCII text a token is a run of [A-Za-z0-9], and lower case is all the folding.
  const asciiWord = /^[a-z0-9]+$/;
  const all = last === undefined ? words : [...words, last];
  const alts = [
    ...(words.length ? [`(?:${words.join('|')})(?![A-Za-z0-9])`] : []),
    ...(last !== undefined ? [last] : []),
  ];
  const ascii =
    all.length && all.every((w) => asciiWord.test(w))
      ? new RegExp(`(?<![A-Za-z0-9])(?:${alts.join('|')})`, 'gi')
      : null;
  const phraseOnly = (t: string) => inPhrase.has(t) && !alone(t);
  return Object.assign(test, { ascii, phrases, phraseOnly });
}

interface Hit {
  start: number;
  end: number;
  match: boolean;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;

function tokensOf(text: string, matches: (folded: string) => boolean, isAscii: boolean): Hit[] {
  // Most news is ASCII: lower case is all the folding it needs (Unicode folding is slow).
  const fold = isAscii ? (t: string) => t.toLowerCase() : foldToken;
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
  matches: QueryMatcher,
  maxTokens = 16,
): string {
  let best: { text: string; isAscii: boolean; tokens: Hit[] | null; hits: number } | null = null;
  for (const text of columns) {
    const isAscii = ASCII.test(text);
    let tokens: Hit[] | null = null;
    let hits: number;
    if (isAscii && matches.ascii) {
      hits = text.match(matches.ascii)?.length ?? 0;
    } else {
      tokens = tokensOf(text, matches, isAscii);
      hits = tokens.reduce((n, t) => n + (t.match ? 1 : 0), 0);
    }
    if (!best || hits > best.hits) best = { text, isAscii, tokens, hits };
  }
  if (!best) return '';
  const { text } = best;
  // Only the column shown is cut into tokens.
  const tokens = best.tokens ?? tokensOf(text, matches, best.isAscii);
  if (tokens.length === 0) return '';
  keepWholePhrases(tokens, text, matches, best.isAscii);
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

/** Unmarks a phrase's words ("at" of "AT&T") where they stand alone, not in the phrase. */
function keepWholePhrases(tokens: Hit[], text: string, m: QueryMatcher, isAscii: boolean) {
  if (m.phrases.length === 0) return;
  const fold = isAscii ? (t: string) => t.toLowerCase() : foldToken;
  const words = tokens.map((t) => fold(text.slice(t.start, t.end)));
  const covered = new Set<number>();
  for (const p of m.phrases)
    for (let i = 0; i + p.length <= words.length; i++)
      if (p.every((w, k) => words[i + k] === w)) p.forEach((_, k) => covered.add(i + k));
  tokens.forEach((t, i) => {
    if (t.match && !covered.has(i) && m.phraseOnly(words[i] as string)) t.match = false;
  });
}
