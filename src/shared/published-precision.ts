/**
 * The precision each kind of figure is published with, known before any of its figures says
 * so. The service sends numbers, so a jobless rate of 4.0 arrives as 4 and a hold at 1.90 as
 * 1.9: on first view (no history cached) only the kind of figure tells "4.0%" and "1.90%".
 * Pure: shared by the grid, the detail, alerts, the squawk, the ICS and the CSV.
 */
import type { EventDate } from './domain.js';

type Figure = Pick<EventDate, 'name' | 'unit' | 'potency'>;

/**
 * A central bank's policy rate by the name the service gives it: "Fed Interest Rate
 * Decision", "ECB Main Refinancing Operations Rate", "PBoC Loan Prime Rate (1Y)", "ECB
 * Deposit Facility Rate", "RBA Cash Rate". Not "Unemployment Rate" nor "Mortgage Rate".
 */
const POLICY_RATE =
  /\b(interest rate decision|refinancing operations rate|deposit facility rate|marginal lending facility|loan prime rate|cash rate|bank rate|policy rate)\b/i;

/** A mortgage rate is quoted in hundredths: "6.84%" (MBA, Freddie Mac). */
const MORTGAGE_RATE = /\bmortgage rate\b/i;

/** An auction's yield, quoted in thousandths: "4.215%" (the US Treasury's results). */
const AUCTION = /\bauction\b/i;

/** The Bundesbank and the DMO quote their auctions' yields in hundredths: "2.61%". */
const EURO_AUCTION = /\b(bund|bobl|schatz|gilt)\b/i;

/** Changes in thousands printed to the hundred: "21.8K" claimants, "14.5K" Canadian jobs, "180.5K" CFTC contracts. */
const TENTH_THOUSANDS =
  /\b(claimant count|employment change|change in employment|unemployment change|cftc)\b/i;

/** Counts in thousands printed whole: "143K" payrolls, "224K" claims, "99K" ADP. */
const WHOLE_THOUSANDS = /\b(nonfarm|payrolls|jobless claims|continuing claims|adp)\b/i;

/** Millions printed to the thousand: "1.311M" starts and permits, "-2.369M" barrels, "7.44M" openings. */
const FINE_MILLIONS =
  /\b(housing starts|building permits|crude|oil stocks|gasoline|distillate|jolts|job openings)\b/i;

/** Existing home sales, an annual rate in millions to the hundredth: "4.06M". */
const HOME_SALES = /\bexisting home sales\b/i;

/** The Fed's balance sheet in whole billions: "$6,650B". */
const WHOLE_BILLIONS = /\bbalance sheet\b/i;

/** Index levels and counts printed whole: a Tankan of 14, 479 rigs, 35 Bcf of gas. */
const WHOLE_INDEX = /\b(tankan|rig count|natural gas storage)\b/i;

/**
 * One rule per kind of figure, first match wins: [test, decimals]. Each says how the
 * agencies and central banks print it (the Fed's statement, the BLS tables, the ECB's press
 * release), which is also how Forex Factory and Investing.com show it.
 */
const RULES: [(f: Figure, unit: string, potency: string) => boolean, number][] = [
  // 1.90%, 4.50%, 0.00%
  [(f, u, p) => u === '%' && p === 'ZERO' && POLICY_RATE.test(f.name), 2],
  [(f, u, p) => u === '%' && p === 'ZERO' && MORTGAGE_RATE.test(f.name), 2],
  // 2.61% at a Bund auction, 4.215% at a Treasury bill's
  [(f, u, p) => u === '%' && p === 'ZERO' && AUCTION.test(f.name) && EURO_AUCTION.test(f.name), 2],
  [(f, u, p) => u === '%' && p === 'ZERO' && AUCTION.test(f.name), 3],
  // CPI 0.3%, unemployment 4.1%, GDP 2.8%, retail sales -0.2%
  [(_f, u, p) => u === '%' && p === 'ZERO', 1],
  // 143K payrolls; 21.8K claimant count, 14.5K Canadian jobs
  [(f, _u, p) => p === 'K' && WHOLE_THOUSANDS.test(f.name), 0],
  [(f, _u, p) => p === 'K' && TENTH_THOUSANDS.test(f.name), 1],
  // 1.311M housing starts, 7.744M job openings; 4.06M home sales
  [(f, _u, p) => p === 'M' && FINE_MILLIONS.test(f.name), 3],
  [(f, _u, p) => p === 'M' && HOME_SALES.test(f.name), 2],
  // $6,650B on the Fed's balance sheet; $-78.3B trade balance, ¥-117.6B
  [(f, _u, p) => p === 'B' && WHOLE_BILLIONS.test(f.name), 0],
  [(_f, _u, p) => p === 'B' || p === 'T', 1],
  // a PMI of 52.0, ZEW -12.5; but a Tankan of 14 and 479 rigs
  [(f, u, p) => u === '' && p === 'ZERO' && WHOLE_INDEX.test(f.name), 0],
  [(_f, u, p) => u === '' && p === 'ZERO', 1],
];

/**
 * The decimals this kind of figure is published with, or undefined when its kind does not
 * tell (a figure in millions other than the fine ones: its own digits decide).
 */
export function publishedDecimals(ed: Partial<Figure>): number | undefined {
  const unit = (ed.unit ?? '').trim();
  const potency = ed.potency ?? 'ZERO';
  const f: Figure = { name: ed.name ?? '', unit: ed.unit ?? null, potency };
  for (const [test, decimals] of RULES) if (test(f, unit, potency)) return decimals;
  return undefined;
}
