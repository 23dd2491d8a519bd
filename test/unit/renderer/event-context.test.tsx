// @vitest-environment jsdom
/**
 * Issue #45, item 3: an event's context in its detail. The demo's descriptions carry it as
 * "Label: text" lines, laid out as a list; a service description in free text is shown as
 * written, once.
 */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EventContext } from '../../../src/renderer/src/components/detail/EventContext.js';
import type { CalendarEvent } from '../../../src/shared/domain.js';
import { INDICATORS } from '../../../src/simulator/data/indicators.js';
import { ed, mount } from './harness.js';

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

describe("the service's own description in the event detail", () => {
  const serviceEvent = (description: string | null): CalendarEvent => ({
    id: 'e1',
    name: 'Retail Sales (MoM)',
    description,
    countryCode: 'US',
    currencyCode: 'USD',
    categoryId: 'c1',
    periodType: 'MONTH',
    unit: '%',
    potency: 'ZERO',
    volatility: 'HIGH',
    isSpeech: false,
    isReport: false,
  });

  /** The app on a service whose event carries `description`, its detail open. */
  async function openDetail(description: string | null): Promise<HTMLElement> {
    const event = serviceEvent(description);
    const row = ed(1, { eventId: 'e1', name: event.name });
    const m = mount([row], {
      getEventDetail: () => ({ event, upcoming: [row], history: [], watched: false }),
    });
    await screen.findAllByTestId('event-row');
    act(() => m.stores.app.getState().openEvent('e1'));
    const detail = await screen.findByTestId('event-detail');
    await within(detail).findByRole('button', { name: 'Close details (Escape)' });
    await within(detail).findByText(/Alert me for this event/);
    return detail;
  }

  it("shows a live service's free-text description as written, once", async () => {
    const text = 'Measures the change in the total value of sales at the retail level.';
    const detail = await openDetail(text);
    expect(within(detail).getAllByText(text)).toHaveLength(1);
    expect(detail.querySelectorAll('p.description')).toHaveLength(1);
    expect(detail.querySelectorAll('dl.event-context')).toHaveLength(0);
  });

  it('lays out the demo context as one list, and shows no description when there is none', async () => {
    const detail = await openDetail(descriptionOf('us-secondary-4'));
    expect(detail.querySelectorAll('dl.event-context')).toHaveLength(1);
    expect(within(detail).getAllByText('National Association of Realtors (NAR)')).toHaveLength(1);
    cleanup();
    const bare = await openDetail(null);
    expect(bare.querySelectorAll('.description')).toHaveLength(0);
  });
});
