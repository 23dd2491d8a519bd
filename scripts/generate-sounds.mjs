#!/usr/bin/env node
// Synthesises the alert sounds into assets/sounds/ (16-bit mono PCM WAV, pure Node, no tools).
// One per impact level, distinct by pitch and shape so a trader tells them apart unseen:
// high = a bright rising two-note chime, medium = one clear note, low = a soft short tick.
// The outputs are committed; run `node scripts/generate-sounds.mjs` after changing a recipe.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RATE = 22_050;
const OUT = join(import.meta.dirname, '..', 'assets', 'sounds');

/** A bell-like note: fundamental plus a soft octave, fast attack, exponential decay. */
function note(freq, startSec, durSec, gain) {
  return (t) => {
    const x = t - startSec;
    if (x < 0 || x > durSec) return 0;
    const attack = Math.min(1, x / 0.006);
    const decay = Math.exp((-5 * x) / durSec);
    const tone = Math.sin(2 * Math.PI * freq * x) + 0.3 * Math.sin(4 * Math.PI * freq * x);
    return gain * attack * decay * tone;
  };
}

const RECIPES = {
  high: { seconds: 0.42, notes: [note(880, 0, 0.2, 0.45), note(1318.5, 0.13, 0.29, 0.45)] },
  medium: { seconds: 0.3, notes: [note(740, 0, 0.3, 0.4)] },
  low: { seconds: 0.14, notes: [note(523.3, 0, 0.14, 0.25)] },
};

function wav(samples) {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) =>
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32_767), i * 2),
  );
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16); // PCM chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

mkdirSync(OUT, { recursive: true });
for (const [name, { seconds, notes }] of Object.entries(RECIPES)) {
  const n = Math.round(seconds * RATE);
  const samples = Array.from({ length: n }, (_, i) => {
    const t = i / RATE;
    // a 10 ms fade-out so the file never ends on a click
    const tail = Math.min(1, (seconds - t) / 0.01);
    return notes.reduce((sum, f) => sum + f(t), 0) * tail;
  });
  const file = join(OUT, `${name}.wav`);
  const bytes = wav(samples);
  writeFileSync(file, bytes);
  console.log(`${file}: ${bytes.length} bytes`);
}
