/** Context for the yen: Japan's statistics, the Ministry of Finance's flows and the Bank of Japan. */
import {
  STATS_JAPAN,
  decision,
  flashPmi,
  positioning,
  speech,
  type EventContext,
} from './kinds.js';

const MOF = 'Ministry of Finance Japan';
const BOJ = 'the Bank of Japan';

export const JPY: Record<string, EventContext> = {
  'jp-cpi': {
    source: STATS_JAPAN,
    measures: 'National consumer prices excluding fresh food, against a year earlier.',
    why: 'The Bank of Japan judges its 2% target on this core measure.',
  },
  'jp-secondary-3': {
    source: STATS_JAPAN,
    measures: 'Consumer prices in Tokyo excluding fresh food, against a year earlier.',
    why: 'Out weeks before the national figure, it is the first read of Japanese inflation each month.',
  },
  'jp-tankan': {
    source: BOJ,
    measures:
      "Large manufacturers' view of business conditions (good minus bad), surveyed each quarter.",
    why: "The central bank's own survey; it feeds the Bank of Japan's next decisions.",
  },
  'jp-flash-mfg': flashPmi(
    'S&P Global',
    'Japan',
    'manufacturing',
    'The first read each month on Japanese factories, which live on Chinese and US demand.',
  ),
  'jp-flash-svc': flashPmi(
    'S&P Global',
    'Japan',
    'services',
    'Services carry the wage-driven inflation the Bank of Japan wants to see before it raises rates.',
  ),
  'jp-secondary-0': {
    source: 'Ministry of Economy, Trade and Industry (METI)',
    measures:
      "The monthly change in the output of Japan's factories and mines (preliminary), with firms' plans for the next two months.",
    why: 'Its survey of production plans makes it a lead on Japanese growth.',
  },
  'jp-secondary-1': {
    source: STATS_JAPAN,
    measures: "The share of Japan's labour force without a job, from the Labour Force Survey.",
    why: 'It barely moves; a labour market this tight is what lets wages, and the Bank of Japan, go higher.',
  },
  'jp-secondary-2': {
    source: STATS_JAPAN,
    measures:
      'Real spending of households of two or more against a year earlier, from the Family Income and Expenditure Survey.',
    why: 'Shows whether higher wages reach consumption, a condition the Bank of Japan sets for further hikes.',
  },
  'jp-trade': {
    source: MOF,
    measures: "Exports minus imports of Japan's goods in yen, from customs data.",
    why: 'Energy imports and car exports drive it; a wider deficit means more yen sold to pay for imports.',
  },
  'jp-weekly-15': {
    source: MOF,
    measures: 'Net purchases of foreign bonds by Japanese investors in the week, in yen.',
    effect: 'Larger purchases than forecast = yen sold for foreign currency = bad for currency',
    why: "Japan's insurers and banks are among the world's largest bond buyers; their flows show whether money leaves or comes home.",
  },
  'jp-weekly-16': {
    source: MOF,
    measures: 'Net purchases of Japanese stocks by foreign investors in the week, in yen.',
    why: 'Foreign buying of Japanese shares brings yen demand and shows how the world rates Japan Inc.',
  },
  'jp-weekly-10': positioning(
    'Japanese yen futures (CME)',
    'The yen funds carry trades; a large net short can unwind violently, as it did in August 2024.',
  ),
  'jp-boj': decision(
    'the Bank of Japan',
    'Each step away from near-zero rates changes the yield gap that drives the yen.',
  ),
  'jp-speaker-11': speech(
    BOJ,
    'Governor Kazuo Ueda',
    'The Bank of Japan prepares markets in words before it acts; a hint from the Governor can move the yen a full figure.',
  ),
};
