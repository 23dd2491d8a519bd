/**
 * Records the cache keeps as JSON (a post's `record`, an event's `raw`) are read through
 * schemas: one another version or a hand edit damaged fails at the read, naming the column
 * and the field, never the value; a good one reads back as written.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/index.js';
import type { CalendarEvent } from '../../../src/shared/domain.js';
import { postFixture } from '../../fixtures/domain.js';

const event: CalendarEvent = {
  id: 'ev-nfp',
  name: 'Nonfarm Payrolls',
  description: null,
  countryCode: 'US',
  currencyCode: 'USD',
  categoryId: 'cat-1',
  periodType: 'MONTH',
  unit: 'K',
  potency: 'K',
  volatility: 'HIGH',
  isSpeech: false,
  isReport: false,
};

describe('records kept as JSON', () => {
  it('reads a good post and event back, and names the damaged field of a bad one', () => {
    const s = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-record-json-')), 'c.db') });
    const post = postFixture({ id: 'p1', culture: 'en-US', title: 'Payrolls beat' });
    s.upsertPost(post, {});
    s.upsertEvent(event, {});
    expect(s.getPost('p1', 'en-US')).toEqual(post);
    expect(s.getEvent('ev-nfp')).toEqual(event);

    s.db.prepare("UPDATE posts SET record = json_set(record, '$.title', 42)").run();
    expect(() => s.getPost('p1', 'en-US')).toThrow(
      'a cached post (posts.record): a wrong or missing title',
    );
    s.db.prepare("UPDATE events SET raw = json_set(raw, '$.name', json('null'))").run();
    expect(() => s.getEvent('ev-nfp')).toThrow(
      'a cached event (events.raw): a wrong or missing name',
    );
    s.db.prepare("UPDATE events SET raw = 'not json'").run();
    expect(() => s.getEvent('ev-nfp')).toThrow('a cached event (events.raw): not valid JSON');
    s.close();
  });
});
