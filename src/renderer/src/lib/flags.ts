/** Flag emoji from the service's country codes (UK and EMU are not ISO). */
const SPECIAL: Record<string, string> = { UK: 'GB', EMU: 'EU' };

export function flagOf(code: string): string {
  const iso = SPECIAL[code] ?? code;
  if (!/^[A-Z]{2}$/.test(iso)) return '🏳';
  return String.fromCodePoint(...[...iso].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
