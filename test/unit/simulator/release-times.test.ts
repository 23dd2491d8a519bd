/**
 * Issue #45, item 1: the demo's US "secondary" releases all printed at 9:00 New York time,
 * a time none of them keeps. Each release's local time as its agency publishes it, written
 * out here by hand (BLS, Census, the Fed's G.17, UMich, NAR, ADP, Ivey, Caixin), checked on
 * every release of 2026 in its agency's zone, so daylight saving cannot move it.
 */
import { describe, expect, it } from 'vitest';
import { INDICATORS, type Indicator } from '../../../src/simulator/data/indicators.js';
import { releaseTimes } from '../../../src/simulator/data/schedule.js';

const EXPECTED: { name: string; country: string; zone: string; time: string; day?: string }[] = [
  { name: 'Producer Price Index (MoM)', country: 'US', zone: 'America/New_York', time: '08:30' },
  { name: 'Durable Goods Orders', country: 'US', zone: 'America/New_York', time: '08:30' },
  { name: 'Building Permits', country: 'US', zone: 'America/New_York', time: '08:30' },
  { name: 'ADP Employment Change', country: 'US', zone: 'America/New_York', time: '08:15' },
  { name: 'Industrial Production (MoM)', country: 'US', zone: 'America/New_York', time: '09:15' },
  {
    name: 'Michigan Consumer Sentiment Index',
    country: 'US',
    zone: 'America/New_York',
    time: '10:00',
  },
  { name: 'Existing Home Sales', country: 'US', zone: 'America/New_York', time: '10:00' },
  { name: 'JOLTS Job Openings', country: 'US', zone: 'America/New_York', time: '10:00' },
  { name: 'Ivey PMI s.a.', country: 'CA', zone: 'America/Toronto', time: '10:00' },
  {
    name: 'Caixin Manufacturing PMI',
    country: 'CN',
    zone: 'Asia/Shanghai',
    time: '09:45',
    day: 'the first business day',
  },
];

const local = (t: number, zone: string) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(t)
      .map((x) => [x.type, x.value]),
  );
  return { time: `${p.hour}:${p.minute}`, day: Number(p.day), weekday: p.weekday as string };
};

const find = (name: string, country: string): Indicator => {
  const found = INDICATORS.filter((i) => i.name === name && i.country === country);
  expect(found, `${country} ${name}`).toHaveLength(1);
  return found[0] as Indicator;
};

describe("the demo's releases at their agencies' local times, all year", () => {
  for (const e of EXPECTED)
    it(`${e.country} ${e.name}: ${e.time} ${e.zone}${e.day ? `, ${e.day}` : ''}`, () => {
      const times = releaseTimes(
        find(e.name, e.country),
        Date.UTC(2026, 0, 1),
        Date.UTC(2027, 0, 1),
      );
      expect(times.length).toBeGreaterThanOrEqual(11); // monthly (a skipped month at most)
      expect([...new Set(times.map((t) => local(t, e.zone).time))]).toEqual([e.time]);
      if (e.day) {
        // The first weekday of each month: no earlier weekday in it.
        for (const t of times) {
          const { day } = local(t, e.zone);
          for (let d = 1; d < day; d++) {
            const earlier = new Date(t - (day - d) * 86_400_000);
            expect([0, 6], new Date(t).toISOString()).toContain(earlier.getUTCDay());
          }
        }
      }
    });

  it('NZ GDT Price Index: the auction on Tuesdays, 13:00 UTC in the (northern) winter', () => {
    const gdt = find('GDT Price Index', 'NZ');
    const times = releaseTimes(gdt, Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1));
    expect(times.length).toBeGreaterThanOrEqual(4);
    for (const t of times) {
      expect(new Date(t).getUTCDay(), new Date(t).toISOString()).toBe(2);
      expect(new Date(t).toISOString().slice(11, 16)).toBe('13:00');
    }
  });

  it('levels carry no "(MoM)" in their name (a 4.0M figure is not a change)', () => {
    const levelsNamedAsChanges = INDICATORS.filter(
      (i) => /\(MoM\)/.test(i.name) && i.potency !== 'ZERO',
    ).map((i) => `${i.key}: ${i.name}`);
    expect(levelsNamedAsChanges).toEqual([]);
  });
});
