/**
 * Keys and tokens never reach error messages or the log file, whatever goes wrong;
 * an invalid list item is skipped and logged instead of failing the page.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { TokenManager, type Credentials } from '../../../src/main/auth/index.js';
import { createApiClients } from '../../../src/main/api/index.js';
import { HttpClient } from '../../../src/node/http/client.js';
import { createLogger } from '../../../src/node/log/logger.js';

const WRONG: Credentials = { publicKey: 'pk-NEVER-SHOWN-7f3a', privateKey: 'sk-NEVER-SHOWN-91c2' };
let sim: RunningSimulator;
let dir: string;
const http = new HttpClient({ sleep: async () => undefined });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 9, autoplay: false, log: () => undefined });
  dir = mkdtempSync(join(tmpdir(), 'macrobell-leak-'));
});
afterAll(async () => {
  await http.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(keys: Credentials, logFile: string, urls = () => sim) {
  const logger = createLogger({ file: logFile, level: 'debug' });
  const tokens = new TokenManager({
    authUrl: () => urls().authUrl,
    credentials: async () => keys,
    http,
  });
  const api = createApiClients({
    urls: () => ({ auth: urls().authUrl, calendar: urls().calendarUrl, news: urls().newsUrl }),
    language: () => 'en',
    tokens,
    http,
    logger,
  });
  return { logger, tokens, ...api };
}

describe('secrets', () => {
  it('stay out of every error and log line, with wrong keys and with good ones', async () => {
    const logFile = join(dir, 'leak.log');
    const bad = setup(WRONG, logFile);
    const messages: string[] = [];
    const attempts = [
      () => bad.tokens.getAuthorization('calendar'),
      () => bad.calendar.categories(),
      () => bad.news.feed('en-US', 1),
      () => bad.calendar.webhooks.list(),
      async () => {
        const r = await bad.tokens.test('news');
        throw new Error(r.message);
      },
    ];
    for (const attempt of attempts) {
      const err = (await attempt().then(
        () => new Error('expected a failure'),
        (e: unknown) => e,
      )) as Error;
      messages.push(`${err.name}: ${err.message} ${JSON.stringify(err)}`);
      // The way the service logs failures: the whole error object.
      bad.logger.error({ err, keys: WRONG }, 'sync failed');
    }
    expect(messages.join('\n')).toMatch(/rejected by the service \(invalid_client\)/);

    // With good keys the token itself is a secret too.
    const good = setup({ publicKey: 'demo-public', privateKey: 'demo-private' }, logFile);
    const authorization = await good.tokens.getAuthorization('calendar');
    const token = authorization.split(' ')[1] as string;
    good.logger.info(
      { headers: { authorization }, token, config: { privateKey: 'demo-private' } },
      'request',
    );
    await good.calendar.categories();

    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/sync failed/);
    for (const secret of [
      WRONG.publicKey,
      WRONG.privateKey,
      'NEVER-SHOWN',
      token,
      'demo-private',
    ]) {
      expect(messages.join('\n')).not.toContain(secret);
      expect(log).not.toContain(secret);
    }
  });
});

describe('lists', () => {
  it('skip an invalid item, keep the rest and log which endpoint sent it', async () => {
    // The real simulator's data, re-served with one broken item in the middle.
    const ok = setup({ publicKey: 'demo-public', privateKey: 'demo-private' }, join(dir, 'a.log'));
    const cats = await ok.calendar.categories();
    const from = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const real = (await ok.calendar.eventDates({ from, to })).slice(0, 3).map((d) => d.raw);
    expect(real).toHaveLength(3);
    const served = [real[0], { id: 'broken-item', eventId: 42 }, real[1], real[2]];
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.endsWith('/v2/token'))
        res.end(
          JSON.stringify({ access_token: 'tok-local', token_type: 'Bearer', expires_in: 600 }),
        );
      else if (req.url?.includes('/eventDates/')) res.end(JSON.stringify(served));
      else res.end(JSON.stringify(cats));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const logFile = join(dir, 'lists.log');
      const local = setup(
        { publicKey: 'p', privateKey: 'q' },
        logFile,
        () =>
          ({
            authUrl: base,
            calendarUrl: base,
            newsUrl: base,
          }) as RunningSimulator,
      );
      const items = await local.calendar.eventDates({ from, to });
      expect(items.map((i) => i.raw)).toEqual([real[0], real[1], real[2]]);
      expect(items[0]?.value.id).toBe((real[0] as { id: string }).id);
      const warn = readFileSync(logFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; endpoint?: string; issues?: string })
        .find((l) => l.msg === 'skipped an invalid item');
      expect(warn).toMatchObject({
        endpoint: 'eventDates',
        issues: expect.stringMatching(/eventId/),
      });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
