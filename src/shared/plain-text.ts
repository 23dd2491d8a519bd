/**
 * Text someone else wrote, made safe to show on one line of a terminal, a page or a chat
 * message: C0 and C1 control characters (ESC, BEL, CR, LF, TAB… — so no escape sequence:
 * no colour, cursor move, window title or OSC 52 clipboard write), DEL, line and paragraph
 * separators and the bidirectional overrides that reorder what a reader sees are removed.
 */
const CONTROLS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function withoutControls(text: string): string {
  return text.replace(CONTROLS, '');
}
