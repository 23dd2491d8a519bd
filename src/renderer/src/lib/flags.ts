/** Flag emoji from the service's country codes (UK and EMU are not ISO). */
const SPECIAL: Record<string, string> = { UK: 'GB', EMU: 'EU' };

export function flagOf(code: string): string {
  const iso = SPECIAL[code] ?? code;
  if (!/^[A-Z]{2}$/.test(iso)) return '🏳';
  return String.fromCodePoint(...[...iso].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

let supported: boolean | undefined;
const CACHE_KEY = 'macrobell.flagEmoji';

/**
 * Whether this system draws flag emoji in colour. Windows has no flag glyphs and shows
 * the two letters instead ("US US"), so there the country code stands alone. Asked once:
 * a flag drawn on a small canvas either has coloured pixels or it does not. The answer is
 * kept for the next start (drawing it costs a cold tab 20–170 ms before its first paint)
 * and checked again once the page is idle, should the fonts have changed.
 */
export function flagEmojiSupported(): boolean {
  if (supported !== undefined) return supported;
  supported = false;
  // jsdom has no canvas (and says so on the console): component tests show codes only.
  if (typeof document === 'undefined' || /jsdom/i.test(navigator.userAgent)) return supported;
  const cached = readCache();
  if (cached === null) return (supported = recheck());
  setTimeout(recheck, 10_000);
  return (supported = cached);
}

function readCache(): boolean | null {
  try {
    const v = localStorage.getItem(CACHE_KEY);
    return v === null ? null : v === '1';
  } catch {
    return null;
  }
}

function recheck(): boolean {
  const drawn = drawsColourFlag();
  try {
    localStorage.setItem(CACHE_KEY, drawn ? '1' : '0');
  } catch {
    // storage refused (private mode): asked again next time
  }
  return drawn;
}

function drawsColourFlag(): boolean {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 24;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return false;
  ctx.textBaseline = 'top';
  ctx.font = '20px sans-serif';
  ctx.fillText(flagOf('US'), 0, 0);
  const px = ctx.getImageData(0, 0, 24, 24).data;
  for (let i = 0; i < px.length; i += 4) {
    const [r, g, b, a] = [px[i]!, px[i + 1]!, px[i + 2]!, px[i + 3]!];
    if (a > 0 && (Math.abs(r - g) > 40 || Math.abs(g - b) > 40)) return true;
  }
  return false;
}
