/**
 * The web host's push log (src/main/web/push-log.ts): bounded by count and by bytes, and
 * honest about what it no longer has — an id older than what is kept gets `resync`, never a
 * replay with a hole in it.
 */
import { describe, expect, it } from 'vitest';
import { PushLog } from '../../../src/main/web/push-log.js';
import { createFakeService } from '../../integration/web/fake-service.js';

const idOf = (frame: string) => /^id: (\S+)$/m.exec(frame)?.[1] as string;

describe('push log', () => {
  it('keeps the newest pushes only, and sends an older id back to read again', () => {
    const service = createFakeService();
    const log = new PushLog(service, { maxEntries: 3 });
    const frames: string[] = [];
    log.subscribe((f) => frames.push(f));
    for (let i = 1; i <= 5; i++) service.emit('alertsRead', { ids: [i] });
    expect(frames).toHaveLength(5);
    // after the 2nd: the 3rd, 4th and 5th are kept
    expect(log.since(idOf(frames[1] as string))).toEqual({ frames: frames.slice(2) });
    expect(log.since(idOf(frames[4] as string))).toEqual({ frames: [] });
    // after the 1st: the 2nd fell out, so frames alone would miss it
    expect(log.since(idOf(frames[0] as string))).toBe('resync');
    // an id ahead of the log is from another life of it
    expect(log.since(idOf(frames[4] as string).replace(/\d+$/, '99'))).toBe('resync');
    expect(log.since(null)).toEqual({ frames: [] });
    log.dispose();
    expect(service.listenerCount()).toBe(0);
  });

  it('is bounded by bytes too: a huge change set pushes older frames out', () => {
    const service = createFakeService();
    const log = new PushLog(service, { maxBytes: 1_000 });
    const frames: string[] = [];
    log.subscribe((f) => frames.push(f));
    service.emit('alertsRead', { ids: [1] });
    service.emit('alertsRead', { ids: [2] });
    service.emit('changes', [
      { kind: 'eventDateRemoved', id: 'x'.repeat(2_000), eventId: 'e' },
    ] as never);
    // the big one is kept (the newest always is); the two before it are gone
    expect(log.since(idOf(frames[0] as string))).toBe('resync');
    expect(log.since(idOf(frames[1] as string))).toEqual({ frames: [frames[2]] });
    log.dispose();
  });
});
