// @vitest-environment jsdom
/**
 * Issue #45, item 3: an event's context in its detail. The demo's descriptions carry it as
 * "Label: text" lines, laid out as a list; a service description in free text is shown as
 * written, once.
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EventContext } from '../../../src/renderer/src/components/detail/EventContext.js';
import { INDICATORS } from '../../../src/simulator/data/indicators.js';

afterEach(cleanup);

const descriptionOf = (key: string) => {
  const ind = INDICATORS.find((i) => i.key === key);
  if (!ind) throw new Error(`no indicator ${key}`);
  return ind.description;
};

describe("an event's context in the detail", () => {
  it("lays out the demo's context for Core CPI: source, measures, frequency, effect, why", () => {
    const { container } = render(<EventContext description={descriptionOf('us-core-cpi-mm')} />);
    const labels = [...container.querySelectorAll('dt')].map((d) => d.textContent);
    expect(labels).toEqual(['Source', 'Measures', 'Frequency', 'Usual effect', 'Why traders care']);
    const texts = [...container.querySelectorAll('dd')].map((d) => d.textContent);
    expect(texts[0]).toBe('U.S. Bureau of Labor Statistics (BLS)');
    expect(texts[2]).toBe('Monthly');
    expect(texts[3]).toBe('Actual above forecast = good for currency');
  });

  it('says lower is good for joblessness, and a hawkish tone for a press conference', () => {
    expect(descriptionOf('us-unemployment')).toContain(
      'Usual effect: Actual below forecast = good for currency',
    );
    expect(descriptionOf('us-powell')).toContain(
      'Usual effect: Tone more hawkish than expected = good for currency',
    );
  });

  it("shows a service's free-text description as written, once", () => {
    const text = 'Retail Sales measures the change in retail sales: a key gauge of demand.';
    const { container } = render(<EventContext description={text} />);
    expect(container.querySelectorAll('dl')).toHaveLength(0);
    expect(container.querySelectorAll('p.description')).toHaveLength(1);
    expect(container.textContent).toBe(text);
  });

  it('shows nothing for an event without a description', () => {
    for (const d of [null, undefined, '  ']) {
      const { container } = render(<EventContext description={d} />);
      expect(container.innerHTML).toBe('');
      cleanup();
    }
  });

  it("gives every headline event of the demo its context, with no service's filler", () => {
    const filler = INDICATORS.filter(
      (i) => i.volatility === 'HIGH' && !i.description.startsWith('Source: '),
    ).map((i) => `${i.country} ${i.name}`);
    expect(filler).toEqual([]);
  });
});
