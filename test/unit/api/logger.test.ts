/** The logger: secrets redacted by field, a size-capped file with one backup, scrubbing. */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from '../../../src/node/log/logger.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'macrobell-log-'));
  dirs.push(dir);
  return join(dir, 'logs', 'app.log');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('createLogger', () => {
  it('writes JSON lines with every secret-shaped field redacted', () => {
    const file = tempFile();
    const log = createLogger({ file, level: 'debug' });
    log.info(
      {
        publicKey: 'pk-LEAK-A1',
        privateKey: 'sk-LEAK-B2',
        settings: { privateKey: 'sk-LEAK-C3', relayToken: 'rt-LEAK-D4', language: 'en' },
        headers: { authorization: 'Bearer at-LEAK-E5' },
        body: { client_id: 'pk-LEAK-F6', client_secret: 'sk-LEAK-G7', access_token: 'at-LEAK-H8' },
      },
      'keys saved',
    );
    log.debug({ token: 'at-LEAK-I9' }, 'token refreshed');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/LEAK/);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      msg: 'keys saved',
      privateKey: '[redacted]',
      settings: { privateKey: '[redacted]', relayToken: '[redacted]', language: 'en' },
      headers: { authorization: '[redacted]' },
    });
    expect(lines[1]).toMatchObject({ msg: 'token refreshed', token: '[redacted]' });
  });

  it('caps the file: past the size it rotates to a single .1 backup', () => {
    const file = tempFile();
    const log = createLogger({ file, maxBytes: 4_000 });
    for (let i = 0; i < 200; i++) log.info({ i, filler: 'x'.repeat(60) }, 'line');
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(false);
    expect(statSync(file).size).toBeLessThanOrEqual(4_000);
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(4_000);
    // The newest line is in the live file, complete.
    const last = readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(last)).toMatchObject({ i: 199 });
  });

  it('a new run appends to a small log and rotates a large one', () => {
    const file = tempFile();
    createLogger({ file }).info('first run');
    createLogger({ file }).info('second run');
    expect(readFileSync(file, 'utf8')).toMatch(/first run[\s\S]*second run/);
    createLogger({ file, maxBytes: 10 }).info('third run');
    expect(readFileSync(`${file}.1`, 'utf8')).toMatch(/second run/);
    expect(readFileSync(file, 'utf8')).toMatch(/third run/);
    expect(readFileSync(file, 'utf8')).not.toMatch(/first run/);
  });
});

/** Every shape a secret has reached a log call in, in the app or the relay. */
const SECRET_SHAPES: Record<string, unknown>[] = [
  { privateKey: 'LEAK-1', publicKey: 'LEAK-2' },
  { settings: { privateKey: 'LEAK-3', relayToken: 'LEAK-4' } },
  { headers: { authorization: 'Bearer LEAK-5', cookie: 'macrobell_session=LEAK-6' } },
  { req: { headers: { authorization: 'Bearer LEAK-7', cookie: 'sid=LEAK-8' } } },
  { body: { client_id: 'LEAK-9', client_secret: 'LEAK-10', access_token: 'LEAK-11' } },
  { token: 'LEAK-12', secret: 'LEAK-13', webhookSecret: 'LEAK-14', password: 'LEAK-15' },
  { user: { token: 'LEAK-16' }, feed: { feedToken: 'LEAK-17' }, admin: { adminToken: 'LEAK-18' } },
  { session: { sessionToken: 'LEAK-19', Cookie: 'LEAK-20' } },
];

describe('one logger for the app and the relay', () => {
  it.each([
    ['the app (file)', {}],
    ['the relay (named, as src/relay/cli.ts builds it)', { base: { name: 'macrobell-relay' } }],
  ])('%s redacts every secret-bearing shape', (_part, opts) => {
    const file = tempFile();
    const log = createLogger({ file, level: 'debug', ...opts });
    for (const shape of SECRET_SHAPES) log.warn(shape, 'shape');
    const text = readFileSync(file, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(SECRET_SHAPES.length);
    expect(text).not.toMatch(/LEAK/);
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(20);
  });

  it('the relay names its lines', () => {
    const file = tempFile();
    createLogger({ file, base: { name: 'macrobell-relay' } }).info('up');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ name: 'macrobell-relay' });
  });
});

describe('scrubSecrets', () => {
  it('replaces each secret and its URL-encoded form, leaving other text alone', () => {
    const text =
      'client_id=pk-123&client_secret=s%2Bk%2F456 and plain s+k/456, id pk-123; scope=calendar';
    const out = scrubSecrets(text, ['pk-123', 's+k/456']);
    expect(out).toBe(
      'client_id=[redacted]&client_secret=[redacted] and plain [redacted], id [redacted]; scope=calendar',
    );
  });

  it('ignores empty or tiny values that would mangle ordinary text', () => {
    expect(scrubSecrets('a calendar', ['', 'a'])).toBe('a calendar');
  });
});
