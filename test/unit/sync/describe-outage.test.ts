/**
 * Issue #43, item 4: in a Redis outage the desk relay's gateway answers 503
 * `store_unavailable`, and the trader's status read "The calendar service answered HTTP
 * 503", blaming the data vendor. The relay's own refusal is named as the desk relay's; a
 * service answer the gateway forwards, and the service itself, are described as before.
 */
import { describe, expect, it } from 'vitest';
import { describeOutage } from '../../../src/main/sync/service-health.js';
import { HttpError } from '../../../src/node/http/client.js';

const gateway = 'https://relay.desk.example/service/calendar/en/api/v1/eventDates/a/b';
const http = (status: number, url: string, json: unknown) =>
  new HttpError(status, url, JSON.stringify(json), json, {});

describe('what the status bar says when a read fails', () => {
  it('names the desk relay when the relay itself refused (its store down)', () => {
    const err = http(503, gateway, {
      error: 'store_unavailable',
      message: 'The relay cannot reach its store now; try again shortly.',
    });
    expect(describeOutage(err)).toBe(
      'The desk relay answered HTTP 503: The relay cannot reach its store now; try again shortly.',
    );
  });

  it('keeps the service as the one at fault when the gateway forwards its answer', () => {
    expect(describeOutage(http(503, gateway, { status: 'down' }))).toBe(
      'The calendar service answered HTTP 503',
    );
    expect(
      describeOutage(http(502, gateway, { error: 'upstream_network', message: 'cannot reach it' })),
    ).toBe('The calendar service answered HTTP 502');
    const direct = 'https://calendar.service.example/en/api/v1/eventDates/a/b';
    expect(describeOutage(http(503, direct, { error: 'x', message: 'y' }))).toBe(
      'The calendar service answered HTTP 503',
    );
  });

  it("never passes a control character of the relay's message to the screen", () => {
    const err = http(503, gateway, { error: 'store_unavailable', message: 'down\r\x1b[2Kfake' });
    expect(describeOutage(err)).toBe('The desk relay answered HTTP 503: down[2Kfake');
  });
});
