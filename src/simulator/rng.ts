/** A small seeded PRNG (mulberry32): the same seed always generates the same market. */
export type Rng = () => number;

export function seedFrom(seed: number | string): number {
  if (typeof seed === 'number') return seed >>> 0;
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  let a = seedFrom(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T;
}

const HEX = '0123456789abcdef';

/** A deterministic UUID v4-shaped id (a hot path: the demo draws thousands at start-up). */
export function uuid(rng: Rng): string {
  let s = '';
  for (let n = 0; n < 32; n++) {
    const digit = Math.floor(rng() * 16);
    if (n === 8 || n === 12 || n === 16 || n === 20) s += '-';
    s += n === 12 ? '4' : n === 16 ? HEX[(digit & 0x3) | 0x8] : HEX[digit];
  }
  return s;
}

/** Round to a number of decimals without float noise. */
export function round(v: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
}
