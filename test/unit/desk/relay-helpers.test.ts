/** The relay's small desk helpers: URL masking for `register` and the per-user rate limit. */
import { describe, expect, it } from 'vitest';
import { maskUrl } from '../../../src/relay/mask-url.js';
import { RateLimiter } from '../../../src/relay/desk/rate-limit.js';

describe('maskUrl', () => {
  it('hides every segment that could be a secret, whoever registered the URL', () => {
    expect(maskUrl('https://other-desk.example/hooks/s3cr3tValueOfAnotherDesk')).toBe(
      'https://other-desk.example/hooks/<secret>',
    );
    expect(maskUrl('https://x.example/in/9f8e7d6c5b4a39281706abcdef/notify')).toBe(
      'https://x.example/in/<secret>/notify',
    );
    expect(maskUrl('https://user:pw@x.example/webhook?key=abc&sig=def')).toBe(
      'https://<secret>@x.example/webhook?key=<secret>&sig=<secret>',
    );
    expect(maskUrl('https://relay.example/hooks/mine', ['mine'])).toBe(
      'https://relay.example/hooks/<secret>',
    );
    // Ordinary words stay readable.
    expect(maskUrl('https://relay.example/api/webhooks/calendar')).toBe(
      'https://relay.example/api/webhooks/calendar',
    );
    expect(maskUrl('not a url')).toBe('<unparseable URL>');
  });
});

describe('RateLimiter', () => {
  it('allows a burst, then asks to wait, and refills with time, per key', () => {
    let now = 0;
    const limiter = new RateLimiter(60, 3, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
    now += 1000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBeGreaterThanOrEqual(1);
  });
});
