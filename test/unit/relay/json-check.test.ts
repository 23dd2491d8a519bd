/**
 * The relay's one-pass body check must accept exactly the webhooks `JSON.parse` accepts
 * and read the same `type`: checked against JSON.parse itself on hand-picked edge cases
 * and on thousands of seeded mutations of real notification bodies (a byte dropped,
 * doubled or swapped for a JSON-significant one).
 */
import { describe, expect, it } from 'vitest';
import { checkJson } from '../../../src/relay/ingest/json-check.js';

/** What the relay did before: JSON.parse, then an object's `type` if it is a string. */
function reference(text: Buffer): { ok: boolean; type?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    return { ok: false };
  }
  const type =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as { type?: unknown }).type
      : undefined;
  return { ok: true, type: typeof type === 'string' ? type : undefined };
}

function verdict(text: Buffer): { ok: boolean; type?: string } {
  const c = checkJson(text, 64);
  return c.ok ? { ok: true, type: c.type } : { ok: false };
}

const cases = [
  '{"type":"eventDate_updated","eventDateId":"ed-1","changes":[{"key":"actual","value":1.5e-3}]}',
  '  {"type" : "x"}\n',
  '{"type":"a","type":"b"}',
  '{"type":"a","type":5}',
  '{"type":5,"type":"b"}',
  '{"typ\\u0065":"escaped key"}',
  '{"type":"caf\\u00e9 \\"quoted\\" \\\\ \\/ \\b\\f\\n\\r\\t"}',
  '{"type":"\\ud800 lone surrogate"}',
  '{"type":"ünïcödé ✓"}',
  '{"nested":{"type":"inner"}}',
  '{"__proto__":{"type":"x"}}',
  '[{"type":"x"}]',
  '"type"',
  '42',
  'null',
  'true',
  'false',
  '{}',
  '[]',
  '{"type":""}',
  '{"type":null}',
  '{"type":{"type":"x"}}',
  '{"a":[1,-0,0.5,1e10,1E+2,-3.25e-7,true,false,null,"s"],"type":"t"}',
  '',
  ' ',
  '\ufeff{"type":"bom"}',
  '{"type":"x",}',
  '{"type":"x"',
  '{"type" "x"}',
  '{type:"x"}',
  "{'type':'x'}",
  '{"type":"x"}}',
  '{"type":"x"} {}',
  '{"type":"tab\tinside"}',
  '{"type":"\\x"}',
  '{"type":"\\u12"}',
  '{"type":"\\u12G4"}',
  '[1,]',
  '[,1]',
  '[01]',
  '[1.]',
  '[.5]',
  '[1e]',
  '[-]',
  '[+1]',
  '[tru]',
  '[nul]',
  '[NaN]',
  '[Infinity]',
  '{"a":1 "b":2}',
  '{"a"::1}',
  '{,}',
  '[1 2]',
];

describe('the relay body check', () => {
  it('agrees with JSON.parse on edge cases', () => {
    for (const c of cases) expect(verdict(Buffer.from(c)), c).toEqual(reference(Buffer.from(c)));
  });

  it('agrees with JSON.parse on invalid UTF-8 inside and outside strings', () => {
    for (const bytes of [
      [0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0xe2, 0x22, 0x7d],
      [0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d],
      [0xc0, 0x7b, 0x7d],
      [0x7b, 0x7d, 0x80],
    ]) {
      const b = Buffer.from(bytes);
      expect(verdict(b), b.toString('hex')).toEqual(reference(b));
    }
  });

  it('agrees with JSON.parse on thousands of mutated bodies', () => {
    let seed = 37;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const significant = Buffer.from('{}[],:"\\ -.eE+0123456789tfnu\t\nx');
    let invalid = 0;
    for (let k = 0; k < 20_000; k++) {
      const base = Buffer.from(cases[rand(23)] as string);
      const bytes = [...base];
      for (let m = 1 + rand(2); m > 0; m--) {
        const at = rand(bytes.length + 1);
        const op = rand(3);
        if (op === 0) bytes.splice(at, 1);
        else if (op === 1) bytes.splice(at, 0, bytes[at] ?? 0x20);
        else bytes[at] = significant[rand(significant.length)] as number;
      }
      const b = Buffer.from(bytes);
      const want = reference(b);
      if (!want.ok) invalid++;
      expect(verdict(b), b.toString()).toEqual(want);
    }
    // The mutations reached both sides of the line.
    expect(invalid).toBeGreaterThan(5_000);
    expect(invalid).toBeLessThan(19_000);
  });

  it('refuses nesting past the limit and accepts it at the limit', () => {
    const nest = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);
    expect(checkJson(nest(64), 64)).toEqual({ ok: true, type: undefined });
    expect(checkJson(nest(65), 64)).toEqual({ ok: false, reason: 'too-deep' });
    expect(
      checkJson(Buffer.from(`{"type":"t","a":${'{"b":'.repeat(70)}1${'}'.repeat(70)}}`), 64),
    ).toEqual({
      ok: false,
      reason: 'too-deep',
    });
  });
});
