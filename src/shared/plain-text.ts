/**
 * Text someone else wrote, made safe to show on one line of a terminal, a page or a chat
 * message: C0 and C1 control characters (ESC, BEL, CR, LF, TAB… — so no escape sequence:
 * no colour, cursor move, window title or OSC 52 clipboard write), DEL, line and paragraph
 * separators, the bidirectional overrides that reorder what a reader sees and the invisible
 * characters (zero-width space and joiners, word joiner, BOM, soft hyphen) are removed.
 */
const CONTROLS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function withoutControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/**
 * A short text of someone else's as one plain phrase: without controls or invisibles, every
 * run of spaces (any kind) one space. Padding a title with hundreds of spaces made the
 * terminal wrap it into what looked like a line of `relay status` of its own.
 */
export function plainPhrase(text: string): string {
  return withoutControls(text).replace(/\s+/g, ' ').trim();
}
