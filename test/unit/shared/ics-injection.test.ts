/**
 * Issue #44, item 7: the feed's text left a lone CR (and the UID came from the service
 * unescaped), so a release name or id holding `\r` or `\r\n` ended its line early and
 * could add a property of its own (an ALARM, a new URL) to the trader's calendar.
 */
import { describe, expect, it } from 'vitest';
import { toIcs } from '../../../src/shared/ics.js';
import { eventDateFixture } from '../../fixtures/domain.js';

/** The unfolded content lines (RFC 5545 §3.1: CRLF then a space continues a line). */
const contentLines = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');

describe('iCalendar text from the service', () => {
  it('cannot break a line: a lone CR, LF or CRLF in a name or an id stays inside its value', () => {
    const ed = eventDateFixture({
      id: 'abc\rURL:https://evil.test\nX-INJ:1',
      name: 'CPI\rBEGIN:VALARM\r\nTRIGGER:-PT1M\u0000\u001b[31m',
    });
    const lines = contentLines(toIcs([ed], 0));
    // Every line is a property of ours: nothing starts with an injected name.
    for (const line of lines) expect(line).not.toMatch(/^(URL|X-INJ|BEGIN:VALARM|TRIGGER)/);
    for (const control of ['\r', '\u0000', '\u001b'])
      expect(lines.join('\n')).not.toContain(control);
    const uid = lines.find((l) => l.startsWith('UID:'));
    expect(uid).toBe('UID:abc\\nURL:https://evil.test\\nX-INJ:1@macrobell');
    const summary = lines.find((l) => l.startsWith('SUMMARY:')) ?? '';
    expect(summary).toContain('CPI\\nBEGIN:VALARM\\nTRIGGER:-PT1M[31m');
  });
});
