/**
 * The alert history's JSON columns are read through schemas: a damaged target opens the
 * history, a damaged receipt is dropped, and the alert itself is still listed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/index.js';
import type { AlertReceipt } from '../../../src/shared/domain.js';

const receipt: AlertReceipt = {
  path: 'relay',
  scheduledAt: 1_000,
  lastUpdatedAt: 1_000,
  printAt: 1_000,
  relayReceivedAt: 1_100,
  appliedAt: 1_200,
  shownAt: null,
};

describe('alert history JSON', () => {
  it('keeps good values, and lists an alert whose target or receipt was damaged', () => {
    const s = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-alert-json-')), 'c.db') });
    const add = (key: string) =>
      s.insertAlert({
        dedupKey: key,
        kind: 'released',
        title: key,
        body: '',
        createdAt: 5,
        target: { type: 'eventDate', eventDateId: 'ed-1', eventId: 'ev-1' },
        receipt,
      })?.id as number;
    const good = add('good');
    const damaged = add('damaged');
    s.db
      .prepare('UPDATE alerts SET target = ?, receipt = ? WHERE id = ?')
      .run('{"type":"eventDate","eventDateId":7}', '{"path":"relay","appliedAt":"soon"}', damaged);
    const byId = new Map(s.listAlerts({}).map((a) => [a.id, a]));
    expect(byId.get(good)).toMatchObject({
      target: { type: 'eventDate', eventDateId: 'ed-1', eventId: 'ev-1' },
      receipt,
    });
    expect(byId.get(damaged)).toMatchObject({ title: 'damaged', target: { type: 'alerts' } });
    expect(byId.get(damaged)?.receipt).toBeNull();
    s.db.prepare('UPDATE alerts SET target = ? WHERE id = ?').run('not json', damaged);
    expect(s.listAlerts({}).find((a) => a.id === damaged)?.target).toEqual({ type: 'alerts' });
    s.close();
  });
});
