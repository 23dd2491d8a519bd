/**
 * Issue #44: a kept window is indexed without blocking the event loop for the whole body.
 * The index is built date by date, handing the loop back every INDEX_SLICE_BYTES, and is
 * exactly the one a single pass builds; cuts from it are the dates in the window, whatever
 * the spacing of the service's JSON; anything but a JSON list is not indexed (passed as it came).
 */
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  INDEX_SLICE_BYTES,
  cutChunks,
  cutToWindow,
  indexWindow,
  indexWindowInSlices,
} from '../../../src/relay/gateway/window.js';

const BASE = Date.parse('2026-03-02T00:00:00.000Z');
const MIN = 60_000;
const dates = (n: number, notes = '') =>
  Array.from({ length: n }, (_, i) => ({
    id: `ed-${i}`,
    dateUtc: new Date(BASE + i * MIN).toISOString(),
    nested: { dateUtc: 'not this one', list: [1, '"]}', { a: '\\' }] },
    notes,
  }));
const answer = (body: string) => ({
  status: 200,
  headers: { 'content-type': 'application/json', etag: '"s"' },
  body: Buffer.from(body),
});

describe('indexing a kept window', () => {
  it('hands the event loop back every slice, and builds the index one pass would', async () => {
    const list = dates(4_000, 'x'.repeat(400));
    const kept = answer(JSON.stringify(list));
    expect(kept.body.length).toBeGreaterThan(4 * INDEX_SLICE_BYTES);
    let ticks = 0;
    let indexing = true;
    const ticker = (async () => {
      while (indexing) {
        await tick();
        ticks++;
      }
    })();
    const sliced = await indexWindowInSlices(kept);
    indexing = false;
    await ticker;
    // The other callbacks ran between slices (each slice is at most a date past the size).
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(kept.body.length / INDEX_SLICE_BYTES) - 1);
    const once = indexWindow(kept);
    const bytes = (a: ArrayBufferView | undefined) => Buffer.from(a?.buffer ?? new ArrayBuffer(0));
    for (const k of ['starts', 'ends', 'times'] as const)
      expect(bytes(sliced?.[k]).equals(bytes(once?.[k])), k).toBe(true);
    expect(sliced?.items).toBe(kept.body);
    expect(Array.from(sliced?.times ?? [])).toEqual(list.map((d) => Date.parse(d.dateUtc)));
  });

  it('cuts spaced-out JSON to the dates in the window, from the bytes as they came', () => {
    const list = dates(10);
    const w = { from: BASE + 2 * MIN, to: BASE + 5 * MIN };
    for (const body of [
      JSON.stringify(list),
      JSON.stringify(list, null, 2),
      ` \n${JSON.stringify(list)}\n`,
    ]) {
      const cut = cutToWindow(answer(body), w);
      expect(JSON.parse(cut.body.toString())).toEqual(list.slice(2, 6));
      expect(cut.headers.etag).not.toBe('"s"');
      const index = indexWindow(answer(body));
      const chunks = index && cutChunks(index, w);
      expect(chunks?.bytes).toBe(cut.body.length);
      // Every date inside: the answer as kept, not a copy.
      expect(index && cutChunks(index, { from: BASE, to: BASE + 9 * MIN })).toBeNull();
    }
    expect(indexWindow(answer('[]'))?.times).toHaveLength(0);
  });

  it('does not index what is not one JSON list', async () => {
    const good = JSON.stringify(dates(3));
    for (const body of [
      `${good.slice(0, -1)},]`,
      `${good}x`,
      good.slice(0, -1),
      good.slice(0, 40),
      '{"a":1}',
      '[{"a":1},,{"b":2}]',
      '[{"a":1} {"b":2}]',
      '[{"a":]1}]',
      '[nul]',
      '',
    ]) {
      expect(indexWindow(answer(body)), body).toBeNull();
      expect(await indexWindowInSlices(answer(body)), body).toBeNull();
    }
    expect(indexWindow({ ...answer(good), status: 404 })).toBeNull();
    // A list of other values is a list: kept by every cut (no time).
    expect(Array.from(indexWindow(answer('[1, "a", null, [2]]'))?.times ?? [])).toHaveLength(4);
  });
});
