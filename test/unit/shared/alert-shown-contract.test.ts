/**
 * What the renderer may tell the core of its own showing and failing, validated at the one
 * contract both hosts check requests against (src/shared/ipc.ts): a surface the core knows,
 * a positive id, a time in ms; a failure report of bounded size.
 */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, parseRequest } from '../../../src/shared/ipc.js';

describe('alertShown and reportRendererError at the contract', () => {
  it('takes a known surface, a positive id and a time', () => {
    const ack = { id: 3, surface: 'toast', at: 1_764_684_000_000 };
    expect(parseRequest('alertShown', ack)).toEqual(ack);
    for (const bad of [
      { ...ack, surface: 'email' },
      { ...ack, id: 0 },
      { ...ack, id: 1.5 },
      { ...ack, at: '13:30' },
      { ...ack, at: -1 },
      { id: 3, surface: 'toast' },
      null,
    ])
      expect(() => parseRequest('alertShown', bad)).toThrow(InvalidRequestError);
  });

  it('takes a failure report of bounded size only', () => {
    const report = { kind: 'boundary', message: 'boom', componentStack: '\n at X', screen: 'news' };
    expect(parseRequest('reportRendererError', report)).toEqual(report);
    for (const bad of [
      { ...report, kind: 'crash' },
      { ...report, message: 'x'.repeat(2_001) },
      { ...report, componentStack: 'x'.repeat(8_001) },
      { kind: 'error' },
    ])
      expect(() => parseRequest('reportRendererError', bad)).toThrow(InvalidRequestError);
  });
});
