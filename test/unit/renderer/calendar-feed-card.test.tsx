// @vitest-environment jsdom
/**
 * Settings → Calendar feed: the webcal URL with Copy and Rotate in desk mode, the relay's
 * reason when it gave none, the watch list's upload state, and one line outside desk mode.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { CalendarFeedInfo } from '../../../src/shared/calendar-feed.js';
import type { AppApi } from '../../../src/shared/ipc.js';
import { apiFrom, type Bridge } from '../../../src/renderer/src/bridge/index.js';
import { createStores, StoresContext } from '../../../src/renderer/src/state/index.js';
import { CalendarFeedCard } from '../../../src/renderer/src/components/settings/CalendarFeedCard.js';

afterEach(cleanup);

const feed = (n: number): CalendarFeedInfo => ({
  desk: true,
  url: `https://relay.example.com/calendar/mbf_${n}.ics`,
  webcal: `webcal://relay.example.com/calendar/mbf_${n}.ics`,
  error: null,
  watchlist: { count: 3, pending: false, syncedAt: null, error: null },
});

function mount(answers: Partial<Record<keyof AppApi, () => unknown>>) {
  const calls: string[] = [];
  const bridge: Bridge = {
    kind: 'test',
    api: apiFrom(async (method) => {
      calls.push(method);
      return answers[method as keyof AppApi]?.() ?? null;
    }),
    on: () => () => undefined,
    onConnection: () => () => undefined,
  };
  render(
    <StoresContext.Provider value={createStores(bridge)}>
      <CalendarFeedCard />
    </StoresContext.Provider>,
  );
  return calls;
}

it('shows the webcal URL; Copy puts it on the clipboard; Rotate replaces it', async () => {
  const writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  vi.spyOn(window, 'confirm').mockReturnValue(true);
  const calls = mount({ getCalendarFeed: () => feed(1), rotateCalendarFeed: () => feed(2) });
  const field = (await screen.findByDisplayValue(/mbf_1/)) as HTMLInputElement;
  expect(field.value).toBe('webcal://relay.example.com/calendar/mbf_1.ics');
  expect(screen.getByText(/3 watched events in the feed/)).toBeTruthy();

  fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
  await waitFor(() => expect(writeText).toHaveBeenCalledWith(field.value));
  expect((await screen.findByRole('status')).textContent).toMatch(/copied/);

  fireEvent.click(screen.getByRole('button', { name: 'Rotate' }));
  await screen.findByDisplayValue(/mbf_2/);
  expect(calls).toContain('rotateCalendarFeed');
  expect(screen.getByRole('status').textContent).toMatch(/old one no longer works/);
});

it('says why there is no URL and that the watch list is waiting to be sent', async () => {
  mount({
    getCalendarFeed: (): CalendarFeedInfo => ({
      desk: true,
      url: null,
      webcal: null,
      error: 'This relay has no provider keys, so it cannot serve calendar feeds.',
      watchlist: { count: 2, pending: true, syncedAt: null, error: 'Cannot reach the relay.' },
    }),
  });
  expect((await screen.findByText(/No feed URL: This relay has no provider keys/)).tagName).toBe(
    'P',
  );
  expect(screen.getByText(/Watch list not on the relay yet: Cannot reach the relay/)).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Rotate' })).toBeNull();
});

it('outside desk mode shows one line and no URL', async () => {
  mount({
    getCalendarFeed: (): CalendarFeedInfo => ({
      desk: false,
      message: 'The calendar feed comes from a desk relay.',
    }),
  });
  await screen.findByText('The calendar feed comes from a desk relay.');
  expect(screen.queryByRole('textbox')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();
});
