/**
 * The time of the service's last answer as this window last saw it, kept across loads: until
 * the core's status arrives (half a second on a warm start) the status bar shows it rather
 * than "Last answer never", which the cache proves false.
 */
const KEY = 'macrobell.lastAnswerAt';

export function rememberedLastAnswer(): number | null {
  try {
    const v = Number(localStorage.getItem(KEY));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null; // no storage (private mode): nothing remembered
  }
}

export function rememberLastAnswer(at: number | null): void {
  if (at === null) return;
  try {
    localStorage.setItem(KEY, String(at));
  } catch {
    // storage refused: the next load waits for the status, as before
  }
}
