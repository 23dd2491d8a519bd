/** Release notes as plain text: GitHub gives HTML, and the window shows text only. */
import { htmlToText } from '../../shared/html-text.js';

const MAX_CHARS = 4_000;

export function releaseNotesText(
  notes: string | { version: string; note: string | null }[] | null | undefined,
): string | null {
  if (!notes) return null;
  const text = Array.isArray(notes)
    ? notes
        .map((n) => (n.note ? `${n.version}\n${htmlToText(n.note, { lines: true })}` : ''))
        .filter(Boolean)
        .join('\n\n')
    : htmlToText(notes, { lines: true });
  if (!text) return null;
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}
