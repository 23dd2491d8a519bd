/** Context for the yuan: the NBS's figures, the surveys, customs and the People's Bank. */
import { NBS, type EventContext } from './kinds.js';

export const CNY: Record<string, EventContext> = {
  'cn-cpi': {
    source: NBS,
    measures: 'Chinese consumer prices against a year earlier.',
    why: 'Low inflation in China points to weak demand and more easing; it moves the yuan and the Australian dollar.',
  },
  'cn-ppi': {
    source: NBS,
    measures: 'Prices Chinese factories get for their output, against a year earlier.',
    why: "China's factory prices are exported to the world; deflation here lowers inflation elsewhere.",
  },
  'cn-gdp': {
    source: NBS,
    measures: "China's output against the same quarter a year earlier.",
    why: "Set against the government's growth target; it moves the yuan, the Australian dollar and commodities.",
  },
  'cn-secondary-0': {
    source: NBS,
    measures:
      'Value added by Chinese industrial firms above a size threshold, against a year earlier.',
    why: "Out mid-month with retail sales, it shows whether factories still carry China's growth.",
  },
  'cn-secondary-1': {
    source: NBS,
    measures: 'Retail sales of consumer goods in China against a year earlier.',
    why: 'Beijing wants consumers to lead growth; weak spending keeps stimulus hopes, and the Australian dollar, in play.',
  },
  'cn-pmi': {
    source: NBS,
    measures:
      'A survey of purchasing managers at large Chinese manufacturers; above 50 means expansion.',
    why: 'The first official read of the month on Chinese industry.',
  },
  'cn-secondary-2': {
    source: 'S&P Global for RatingDog (sponsored by Caixin until July 2025)',
    measures:
      'A survey of purchasing managers at Chinese manufacturers, smaller and private firms among them; above 50 means expansion.',
    why: 'A private check on the official PMI, with more of the export-oriented firms.',
  },
  'cn-trade': {
    source: 'General Administration of Customs of China',
    measures: "China's exports minus imports of goods, in US dollars.",
    why: "China's exports set demand for Asian and commodity currencies; tariff fights show up here first.",
  },
  'cn-lpr': {
    source: "the People's Bank of China (PBoC)",
    measures: 'The one-year Loan Prime Rate banks quote to their best customers, set monthly.',
    effect: 'Rate above forecast = good for currency',
    why: 'The benchmark for Chinese lending; a cut signals easing.',
  },
};
