/** The relay's kept JSON files read one way: absent, damaged, wrong shape, loose mode. */
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readKeptJson } from '../../../src/relay/db/kept-json.js';
import { loadProviderKeys } from '../../../src/relay/desk/provider-keys.js';

const dir = () => mkdtempSync(join(tmpdir(), 'mb-kept-json-'));
const schema = z.object({ publicKey: z.string().min(1), privateKey: z.string().min(1) });
const HINT = 'write it again with `relay keys set`';
const SECRET = 'kept-SECRET-5d81';

describe('readKeptJson', () => {
  it('is null for an absent file and the checked value for a good one', () => {
    const file = join(dir(), 'k.json');
    expect(readKeptJson(file, schema, HINT)).toBeNull();
    writeFileSync(file, JSON.stringify({ publicKey: 'p', privateKey: SECRET }));
    expect(readKeptJson(file, schema, HINT)).toEqual({ publicKey: 'p', privateKey: SECRET });
  });

  it('names the file and the fix for a file that is not JSON', () => {
    const file = join(dir(), 'k.json');
    writeFileSync(file, `{"privateKey": "${SECRET}"`);
    expect(() => readKeptJson(file, schema, HINT)).toThrow(
      `${file} is not valid JSON: write it again with \`relay keys set\``,
    );
  });

  it('names the wrong fields, never their values', () => {
    const file = join(dir(), 'k.json');
    writeFileSync(file, JSON.stringify({ publicKey: 42, privateKey: SECRET, extra: SECRET }));
    let message = '';
    try {
      readKeptJson(file, z.object({ publicKey: z.string(), privateKey: z.number() }), HINT);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(`${file} has a wrong or missing publicKey, privateKey: ${HINT}`);
    expect(message).not.toContain(SECRET);
  });

  it('tightens a private file whose mode was loosened by hand', () => {
    const d = dir();
    const file = join(d, 'provider-keys.json');
    writeFileSync(file, JSON.stringify({ publicKey: 'p', privateKey: SECRET }));
    chmodSync(file, 0o644);
    expect(loadProviderKeys(d, {})).toEqual({ publicKey: 'p', privateKey: SECRET });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
