/**
 * Issue #45, item 1: the demo's US "secondary" releases all printed at 9:00 New York time,
 * a time none of them keeps. Each release's local time as its agency publishes it, written
 * out here by hand (BLS, Census, the Fed's G.17, UMich, NAR, ADP, Ivey, Caixin), checked on
 * every release of 2026 in its agency's zone, so daylight saving cannot move it.
 */
import { describe, expect, it } from 'vitest';
import { INDICATORS, type Indicator } from '../../../src/simulator/data/indicators.js';
import { releaseTimes } from '../../../src/simulator/data/schedule.js';

interface Expected {
  name: string;
  country: string;
  zone: string;
  time: string;
  day?: string;
  quarterly?: true;
}

const NY = 'America/New_York';
// prettier-ignore
const HEADLINES: Expected[] = [
  // BLS (CPI, jobs report), Census (retail sales), S&P Global (flash PMIs, 9:45 New York)
  { name: 'Core Consumer Price Index (MoM)', country: 'US', zone: NY, time: '08:30' },
  { name: 'Core Consumer Price Index (YoY)', country: 'US', zone: NY, time: '08:30' },
  { name: 'Average Hourly Earnings (MoM)', country: 'US', zone: NY, time: '08:30' },
  { name: 'Retail Sales ex Autos (MoM)', country: 'US', zone: NY, time: '08:30' },
  { name: 'S&P Global Flash Manufacturing PMI', country: 'US', zone: NY, time: '09:45' },
  { name: 'S&P Global Flash Services PMI', country: 'US', zone: NY, time: '09:45' },
  // Eurostat's flash HICP 11:00 CET; HCOB flash PMIs: France 9:15, Germany 9:30, euro area 10:00
  { name: 'Core HICP (YoY)', country: 'EMU', zone: 'Europe/Berlin', time: '11:00' },
  { name: 'HCOB Flash Manufacturing PMI', country: 'EMU', zone: 'Europe/Berlin', time: '10:00' },
  { name: 'HCOB Flash Services PMI', country: 'EMU', zone: 'Europe/Berlin', time: '10:00' },
  { name: 'HCOB Flash Manufacturing PMI', country: 'DE', zone: 'Europe/Berlin', time: '09:30' },
  { name: 'HCOB Flash Services PMI', country: 'DE', zone: 'Europe/Berlin', time: '09:30' },
  { name: 'HCOB Flash Manufacturing PMI', country: 'FR', zone: 'Europe/Paris', time: '09:15' },
  { name: 'HCOB Flash Services PMI', country: 'FR', zone: 'Europe/Paris', time: '09:15' },
  // ONS 7:00 UK; S&P Global UK flash 9:30 UK
  { name: 'Core Consumer Price Index (YoY)', country: 'UK', zone: 'Europe/London', time: '07:00' },
  { name: 'ILO Unemployment Rate (3M)', country: 'UK', zone: 'Europe/London', time: '07:00' },
  { name: 'S&P Global Flash Manufacturing PMI', country: 'UK', zone: 'Europe/London', time: '09:30' },
  { name: 'S&P Global Flash Services PMI', country: 'UK', zone: 'Europe/London', time: '09:30' },
  // S&P Global Japan flash 9:30 Tokyo
  { name: 'S&P Global Flash Manufacturing PMI', country: 'JP', zone: 'Asia/Tokyo', time: '09:30' },
  { name: 'S&P Global Flash Services PMI', country: 'JP', zone: 'Asia/Tokyo', time: '09:30' },
  // Statistics Canada 8:30 Ottawa
  { name: 'Unemployment Rate', country: 'CA', zone: 'America/Toronto', time: '08:30' },
  { name: 'BoC Core Consumer Price Index (YoY)', country: 'CA', zone: 'America/Toronto', time: '08:30' },
  { name: 'Retail Sales ex Autos (MoM)', country: 'CA', zone: 'America/Toronto', time: '08:30' },
  // ABS 11:30 Canberra (Sydney's clock); S&P Global Australia flash 9:00
  { name: 'Unemployment Rate s.a.', country: 'AU', zone: 'Australia/Sydney', time: '11:30' },
  { name: 'Monthly CPI Trimmed Mean (YoY)', country: 'AU', zone: 'Australia/Sydney', time: '11:30' },
  { name: 'S&P Global Flash Manufacturing PMI', country: 'AU', zone: 'Australia/Sydney', time: '09:00' },
  { name: 'S&P Global Flash Services PMI', country: 'AU', zone: 'Australia/Sydney', time: '09:00' },
  // Stats NZ 10:45 Wellington, quarterly
  { name: 'Consumer Price Index (QoQ)', country: 'NZ', zone: 'Pacific/Auckland', time: '10:45', quarterly: true },
  { name: 'Unemployment Rate', country: 'NZ', zone: 'Pacific/Auckland', time: '10:45', quarterly: true },
  { name: 'Gross Domestic Product (QoQ)', country: 'NZ', zone: 'Pacific/Auckland', time: '10:45', quarterly: true },
  // FSO 8:30 Zurich; NBS 9:30 (prices) and 10:00 (GDP) Beijing
  { name: 'Core Consumer Price Index (YoY)', country: 'CH', zone: 'Europe/Zurich', time: '08:30' },
  { name: 'Producer Price Index (YoY)', country: 'CN', zone: 'Asia/Shanghai', time: '09:30' },
  { name: 'Gross Domestic Product (YoY)', country: 'CN', zone: 'Asia/Shanghai', time: '10:00', quarterly: true },
];

const EXPECTED: Expected[] = [
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
    name: 'RatingDog Manufacturing PMI',
    country: 'CN',
    zone: 'Asia/Shanghai',
    time: '09:45',
    day: 'the first business day',
  },
  ...HEADLINES,
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
      // monthly (a skipped month at most) or quarterly
      expect(times.length).toBeGreaterThanOrEqual(e.quarterly ? 4 : 11);
      expect([...new Set(times.map((t) => local(t, e.zone).time))]).toEqual([e.time]);
      if (e.day) {
        // The first working day of each month: no earlier weekday in it but China's holidays
        // (New Year 1–3 January, Labour Day 1–5 May, National Day 1–7 October 2026); January's
        // is Sunday 4 January, a make-up working day
        const off = [
          '2026-01-01',
          '2026-01-02',
          '2026-05-01',
          '2026-05-04',
          '2026-05-05',
          '2026-10-01',
          '2026-10-02',
          '2026-10-05',
          '2026-10-06',
          '2026-10-07',
        ];
        for (const t of times) {
          const { day } = local(t, e.zone);
          for (let d = 1; d < day; d++) {
            const earlier = new Date(t - (day - d) * 86_400_000);
            if (off.includes(earlier.toISOString().slice(0, 10))) continue;
            expect([0, 6], new Date(t).toISOString()).toContain(earlier.getUTCDay());
          }
        }
      }
    });

  // One release, several figures: the core with the headline, earnings with payrolls.
  const SAME_RELEASE: [string, string, string][] = [
    ['US', 'Core Consumer Price Index (MoM)', 'Consumer Price Index (MoM)'],
    ['US', 'Core Consumer Price Index (YoY)', 'Consumer Price Index (YoY)'],
    ['US', 'Average Hourly Earnings (MoM)', 'Nonfarm Payrolls'],
    ['US', 'Retail Sales ex Autos (MoM)', 'Retail Sales (MoM)'],
    ['EMU', 'Core HICP (YoY)', 'Harmonized Index of Consumer Prices (YoY)'],
    ['UK', 'Core Consumer Price Index (YoY)', 'Consumer Price Index (YoY)'],
    ['UK', 'ILO Unemployment Rate (3M)', 'Claimant Count Change'],
    ['UK', 'Average Earnings Including Bonus (3Mo/Yr)', 'Claimant Count Change'],
    ['CA', 'Unemployment Rate', 'Net Change in Employment'],
    ['CA', 'BoC Core Consumer Price Index (YoY)', 'Consumer Price Index (YoY)'],
    ['CA', 'Retail Sales ex Autos (MoM)', 'Retail Sales (MoM)'],
    ['AU', 'Unemployment Rate s.a.', 'Employment Change s.a.'],
    ['AU', 'Monthly CPI Trimmed Mean (YoY)', 'Monthly Consumer Price Index (YoY)'],
    ['CH', 'Core Consumer Price Index (YoY)', 'Consumer Price Index (YoY)'],
  ];
  for (const [country, part, release] of SAME_RELEASE)
    it(`${country} ${part} prints in one release with ${release}`, () => {
      const range = [Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)] as const;
      const times = releaseTimes(find(part, country), ...range);
      expect(times.length).toBeGreaterThanOrEqual(11);
      expect(times).toEqual(releaseTimes(find(release, country), ...range));
    });

  it("the flash PMIs: every region's on one local day a month, about the 23rd", () => {
    const zone: Record<string, string> = {
      US: NY,
      EMU: 'Europe/Berlin',
      DE: 'Europe/Berlin',
      FR: 'Europe/Paris',
      UK: 'Europe/London',
      JP: 'Asia/Tokyo',
      AU: 'Australia/Sydney',
    };
    const flash = INDICATORS.filter((i) => / Flash (Manufacturing|Services) PMI$/.test(i.name));
    expect(flash.map((i) => i.country).sort()).toEqual([
      'AU',
      'AU',
      'DE',
      'DE',
      'EMU',
      'EMU',
      'FR',
      'FR',
      'JP',
      'JP',
      'UK',
      'UK',
      'US',
      'US',
    ]);
    const localDays = (i: Indicator) =>
      releaseTimes(i, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)).map((t) =>
        new Intl.DateTimeFormat('en-CA', { timeZone: zone[i.country] }).format(t),
      );
    const expected = localDays(flash[0] as Indicator);
    expect(expected).toHaveLength(12);
    for (const d of expected) expect(Number(d.slice(8)), d).toBeGreaterThanOrEqual(21);
    // Japan's on the next business day when the day is a Japanese holiday: the Emperor's
    // Birthday (23 February), the autumnal equinox (23 September), Labour Thanksgiving
    // (23 November)
    const japan = expected.map(
      (d) =>
        ({ '2026-02-23': '2026-02-24', '2026-09-23': '2026-09-24', '2026-11-23': '2026-11-24' })[
          d
        ] ?? d,
    );
    for (const i of flash)
      expect(localDays(i), `${i.country} ${i.name}`).toEqual(i.country === 'JP' ? japan : expected);
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
