import { flagEmojiSupported, flagOf } from '../lib/flags.js';

/** A country's flag and a space before its code, where the system can draw flags. */
export function Flag({ code }: { code: string }) {
  if (!flagEmojiSupported()) return null;
  return <span aria-hidden="true">{flagOf(code)} </span>;
}
