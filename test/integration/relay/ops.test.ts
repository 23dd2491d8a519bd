/**
 * Relay operations on the SQLite backend (issue #15 item 7): a full disk turns /healthz
 * to 503 with the reason and counts the failures, and it recovers by itself; a log from
 * before numbered migrations opens unchanged and its numeric ids resume exactly.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import type { SqliteEventLog } from '../../../src/relay/log/sqlite-log.js';
import { SECRET, TOKEN, openSseReader, post, tempDir, waitFor } from './helpers.js';

let relay: RunningRelay | null = null;
afterEach(async () => {
  await relay?.close();
  relay = null;
});

async function health(url: string) {
  const res = await request(`${url}/healthz`);
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

describe('a full disk', () => {
  it('answers 503 disk_full to webhooks, 503 from /healthz with the reason, counts failures, recovers', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    expect((await post(relay.webhookUrl, '{"type":"t","n":1}')).status).toBe(204);
    const db = (relay.log as SqliteEventLog).db;
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`); // the file may not grow: SQLITE_FULL
    const big = JSON.stringify({ type: 't', pad: 'x'.repeat(200_000) });
    for (let i = 0; i < 3; i++) expect((await post(relay.webhookUrl, big)).status).toBe(503);
    const h = await health(relay.url);
    expect(h.status).toBe(503);
    expect(String(h.json.reason)).toMatch(/last 3 commits failed: .*full/);
    expect(await relay.metrics()).toMatch(/^macrobell_relay_store_failures_total 3$/m);
    db.pragma('max_page_count = 1073741823'); // space again
    expect((await post(relay.webhookUrl, big)).status).toBe(204);
    expect((await health(relay.url)).status).toBe(200);
  });
});

describe('a log from before numbered migrations', () => {
  it('opens unchanged, and a desktop resumes after its numeric id exactly', async () => {
    const dir = tempDir();
    const old = new Database(join(dir, 'relay.db'));
    old.exec(`CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, received_at INTEGER NOT NULL,
      type TEXT NOT NULL, body BLOB NOT NULL, headers TEXT NOT NULL);
      CREATE INDEX events_received ON events(received_at);
      CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);`);
    const insert = old.prepare(
      'INSERT INTO events (received_at, type, body, headers) VALUES (?, ?, ?, ?)',
    );
    for (let n = 1; n <= 3; n++)
      insert.run(Date.now(), 't', Buffer.from(JSON.stringify({ type: 't', n })), '{}');
    old.close();
    relay = await startRelay({ dataDir: dir, secret: SECRET, token: TOKEN });
    const stream = await openSseReader(`${relay.url}/events`, {
      authorization: `Bearer ${TOKEN}`,
      'last-event-id': '1',
    });
    expect((await post(relay.webhookUrl, '{"type":"t","n":4}')).status).toBe(204);
    await waitFor(() => stream.frames.length >= 3, 'ids 2–4');
    stream.close();
    expect(stream.frames.map((f) => [f.event, f.id])).toEqual([
      ['notification', '2'],
      ['notification', '3'],
      ['notification', '4'],
    ]);
  });
});
