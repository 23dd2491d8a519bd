/** Release notes as plain text: GitHub gives HTML, and the window shows text only. */
import { decodeHTML } from 'entities';

const MAX_CHARS = 4_000;

function htmlToText(html: string): string {
  const text = decodeHTML(
    html
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
      .replace(/<li[^>]*>/gi, '\n• ')
      .replace(/<(br|\/p|\/h\d|\/li|\/ul|\/ol|\/div)[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  );
  return text
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function releaseNotesText(
  notes: string | { version: string; note: string | null }[] | null | undefined,
): string | null {
  if (!notes) return null;
  const text = Array.isArray(notes)
    ? notes
        .map((n) => (n.note ? `${n.version}\n${htmlToText(n.note)}` : ''))
        .filter(Boolean)
        .join('\n\n')
    : htmlToText(notes);
  if (!text) return null;
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}
