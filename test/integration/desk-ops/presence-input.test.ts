/** POST /presence and the stream's identity headers refuse bad input with clear errors. */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { SECRET, TOKEN, tempDir } from '../relay/helpers.js';

let relay: RunningRelay;
beforeAll(async () => {
  relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
});
afterAll(() => relay.close());

const presence = async (body: string, token = TOKEN) => {
  const res = await request(`${relay.url}/presence`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.statusCode, body: (await res.body.text()) as string };
};

describe('presence input', () => {
  it('answers 401 without a token, 400 for a bad body, 404 for a desktop never seen', async () => {
    expect((await presence('{}', 'wrong')).status).toBe(401);
    const bad = await presence(JSON.stringify({ desktop: 'x', appliedId: '1' }));
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('desktop must be 8–64 letters');
    expect((await presence(JSON.stringify({ desktop: 'desk-0001', appliedId: 'zz' }))).status).toBe(
      400,
    );
    expect((await presence('not json')).status).toBe(400);
    // Today's prints: counted, bounded, nothing else in it.
    const alerts = (a: unknown) =>
      presence(JSON.stringify({ desktop: 'desk-0001', appliedId: '0', alerts: a }));
    const negative = await alerts({
      day: 0,
      count: -1,
      p50LateMs: null,
      maxLateMs: null,
      last: null,
    });
    expect(negative.status).toBe(400);
    expect(negative.body).toContain('alerts.count');
    const extra = await alerts({ day: 0, count: 1, p50LateMs: 1, maxLateMs: 1, last: null, x: 1 });
    expect(extra.status).toBe(400);
    const long = await alerts({
      day: 0,
      count: 1,
      p50LateMs: 1,
      maxLateMs: 1,
      last: { title: 'x'.repeat(201), printAt: 0, lateMs: 1 },
    });
    expect(long.body).toContain('alerts.last.title');
    // When it applied its last batches: bounded, ids of this relay, nothing else in them.
    const history = (a: unknown) =>
      presence(JSON.stringify({ desktop: 'desk-0001', appliedId: '0', applied: a }));
    const tooMany = await history(Array.from({ length: 51 }, (_, i) => ({ id: `${i}`, at: 1 })));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toContain('applied at most 50 checkpoints');
    const notAnId = await history([{ id: 'NFP', at: 1 }]);
    expect(notAnId.body).toContain('applied.0.id must be an event id');
    expect((await history([{ id: '1', at: -1 }])).body).toContain('applied.0.at');
    expect((await history([{ id: '1', at: 1, name: 'NFP' }])).status).toBe(400);
    const unknown = await presence(JSON.stringify({ desktop: 'desk-0001', appliedId: '0' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('Open GET /events');
  });

  it('refuses a stream whose identity headers are malformed, naming the header', async () => {
    const res = await request(`${relay.url}/events`, {
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'x-macrobell-desktop': 'desk-0001',
        'x-macrobell-app-version': '<script>',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(await res.body.text()).toContain('x-macrobell-app-version must be a version');
  });
});
