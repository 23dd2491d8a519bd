import { describe, expect, it } from 'vitest';
import { buildSnippet, queryMatcher } from '../../../src/main/store/snippet.js';

const show = (s: string) => s.replaceAll('\x01', '[').replaceAll('\x02', ']');

describe('search snippets', () => {
  it('marks every word of the query and the last one as a prefix, without diacritics or case', () => {
    const m = queryMatcher('banco CÉNTR');
    expect(show(buildSnippet(['', '', 'El Banco Central subió los tipos'], m))).toBe(
      'El [Banco] [Central] subió los tipos',
    );
    expect(show(buildSnippet(['Gold rallies; goldman cuts'], queryMatcher('gol')))).toBe(
      '[Gold] rallies; [goldman] cuts',
    );
  });

  it('picks the column with the most matches, the title on a tie', () => {
    const m = queryMatcher('payrolls');
    expect(show(buildSnippet(['Payrolls surge', 'Payrolls beat', 'x'], m))).toBe(
      '[Payrolls] surge',
    );
    expect(show(buildSnippet(['Markets wrap', '', 'payrolls and payrolls'], m))).toBe(
      '[payrolls] and [payrolls]',
    );
  });

  it('cuts a long text to a window a little before the first match, with ellipses', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    words[20] = 'inflation';
    const out = show(buildSnippet(['', '', words.join(' ')], queryMatcher('inflation'), 8));
    expect(out).toBe('…w17 w18 w19 [inflation] w21 w22 w23 w24…');
    // Near the end the window slides back rather than shrink.
    words[39] = 'yields';
    expect(show(buildSnippet(['', '', words.join(' ')], queryMatcher('yields'), 4))).toBe(
      '…w36 w37 w38 [yields]',
    );
  });

  it('keeps the punctuation between words and shows the start of the text when nothing matches', () => {
    expect(show(buildSnippet(['Rates & bonds: yields <rise>.'], queryMatcher('yields')))).toBe(
      'Rates & bonds: [yields] <rise>.',
    );
    expect(buildSnippet(['No match here'], queryMatcher('zzz'))).toBe('No match here');
    expect(buildSnippet(['', '', ''], queryMatcher('x'))).toBe('');
  });
});

describe('the ASCII fast path', () => {
  it('picks the same column and marks the same words as the token-by-token path', () => {
    const columns = [
      'Fed holds rates; inflation in focus',
      'Inflation-linked bonds rally as inflationary fears ease',
      'In the US, CPI inflation rose. Infl. expectations: "inflation" 2.9% in May; in-line.',
    ];
    for (const q of ['inflation', 'in', 'infl', 'rates inflation', 'in infl', 'zzz', 'CPI 2']) {
      const fast = queryMatcher(q);
      expect(fast.ascii, q).not.toBeNull();
      const slow = Object.assign((t: string) => fast(t), { ...fast, ascii: null });
      expect(buildSnippet(columns, fast), q).toBe(buildSnippet(columns, slow));
    }
    // Accents fold away ("Zürich" finds an ASCII "Zurich"); a word beyond ASCII takes the token path.
    expect(show(buildSnippet(['Banks in Zurich'], queryMatcher('Zürich')))).toBe(
      'Banks in [Zurich]',
    );
    expect(queryMatcher('Москва').ascii).toBeNull();
  });
});
