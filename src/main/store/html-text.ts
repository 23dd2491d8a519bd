/** Text helpers for the search index. */
import { htmlToText } from '../../shared/html-text.js';
import { parseSearch } from '../../shared/search-aliases.js';

export { htmlToText };

/** Escape text so it is safe inside HTML. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** Fold a word as the index's tokenizer does (unicode61, remove_diacritics): lower case, no accents. */
export function foldToken(token: string): string {
  return token
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase();
}

/** The words of a user's search text, as the index splits text (at most 12). */
export function searchWords(input: string): string[] {
  return input
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .slice(0, 12);
}

/** Joins the parts of one typed word ("AT&T" → "AT_T") while the aliases are read. */
const JOIN = '_';

/**
 * The search text as parseSearch reads it, a typed word that joins words with a sign
 * ("AT&T", "S&P", "U.S.") kept as one word: split into "AT" and a prefix "T", it matched
 * nearly every story ("at" and any word starting with t).
 */
function parseNewsSearch(input: string) {
  const typed: string[] = [];
  let count = 0;
  for (const chunk of input.split(/\s+/)) {
    const words = searchWords(chunk).slice(0, 12 - count);
    if (!words.length) continue;
    typed.push(words.join(JOIN));
    count += words.length;
  }
  return parseSearch(typed.join(' '), { countries: false });
}

/** The words of one typed word that joined several ("AT_T" → at, t), else null. */
const joinedWords = (word: string) => (word.includes(JOIN) ? word.split(JOIN) : null);

/**
 * A user's search text → a safe FTS5 query, with the calendar's shortcuts (parseSearch):
 * every word must match, an alias as itself or any of its phrases ("NFP" → "nfp" OR
 * "nonfarm payrolls"). Every token is quoted (no operator survives); a last plain word is
 * prefix-matched. Short prefixes use the index's prefix tables (`"ab"*`); a longer one is
 * expanded by `expand` (the index's own terms starting with it) into an OR of exact terms,
 * because FTS5 would otherwise merge every matching doclist before answering. A typed word
 * of several ("AT&T", "S&P") is their phrase, never a prefix: `"at t"`.
 */
export function toFtsQuery(
  input: string,
  expand?: (prefix: string) => string[],
  indexedPrefix = 4,
): string | null {
  const parsed = parseNewsSearch(input);
  if (!parsed) return null;
  const quote = (t: string) => `"${t}"`;
  const phrase = (p: string) => quote(searchWords(p).join(' '));
  const parts = parsed.groups.map((g, i) => {
    if (g.alias) return `(${g.phrases.map(phrase).join(' OR ')})`;
    const word = g.phrases[0] as string;
    const joined = joinedWords(word);
    if (joined) return quote(joined.join(' '));
    if (i < parsed.groups.length - 1) return quote(word);
    if (expand && [...word].length > indexedPrefix) {
      const terms = expand(foldToken(word));
      return terms.length ? `(${terms.map(quote).join(' OR ')})` : quote(word);
    }
    return `${quote(word)}*`;
  });
  // Explicit AND: FTS5 accepts no implicit AND before a parenthesised group.
  return parts.join(' AND ');
}

/**
 * The folded words a search matches exactly (aliases' phrases too) and its prefix, for
 * snippets; `phrases`: the words typed as one ("AT&T"), which match only side by side.
 */
export function searchTerms(input: string): {
  exact: string[];
  prefix: string | undefined;
  phrases: string[][];
} {
  const parsed = parseNewsSearch(input);
  const exact: string[] = [];
  const phrases: string[][] = [];
  let prefix: string | undefined;
  parsed?.groups.forEach((g, i) => {
    const joined = g.alias ? null : joinedWords(g.phrases[0] as string);
    if (joined) return void phrases.push(joined.map(foldToken));
    const words = g.phrases.flatMap((p) => searchWords(p).map(foldToken));
    if (!g.alias && i === parsed.groups.length - 1) prefix = words[0];
    else exact.push(...words);
  });
  return { exact, prefix, phrases };
}

// Control characters never belong in indexed text, and \x01/\x02 mark snippet matches.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f]/g;

/** The three searchable columns of a post, as plain text (title weighs most, then summary). */
export function searchColumns(p: {
  title: string;
  summary: string | null;
  contentHtml: string;
}): [title: string, summary: string, body: string] {
  const clean = (s: string) => s.replace(CONTROL_CHARS, ' ');
  return [
    clean(p.title),
    clean(p.summary ? htmlToText(p.summary) : ''),
    clean(htmlToText(p.contentHtml)),
  ];
}
