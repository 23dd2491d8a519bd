/** The economic calendar: releases (event dates), their indicators, categories, filters. */

export const VOLATILITIES = ['NONE', 'LOW', 'MEDIUM', 'HIGH'] as const;

export type Volatility = (typeof VOLATILITIES)[number];

export const POTENCIES = ['ZERO', 'K', 'M', 'B', 'T'] as const;

export type Potency = (typeof POTENCIES)[number];

export type Scope = 'calendar' | 'news';

/** One dated occurrence of an event, as the calendar API returns it (camelCase). */
export interface EventDate {
  id: string;
  eventId: string;
  dateUtc: string;
  periodDateUtc: string | null;
  periodType: string | null;
  actual: number | null;
  revised: number | null;
  consensus: number | null;
  ratioDeviation: number | null;
  previous: number | null;
  isBetterThanExpected: boolean | null;
  name: string;
  countryCode: string;
  currencyCode: string;
  unit: string | null;
  potency: Potency | string | null;
  volatility: Volatility | string;
  isAllDay: boolean;
  isTentative: boolean;
  isPreliminary: boolean;
  isReport: boolean;
  isSpeech: boolean;
  /** Unix seconds. */
  lastUpdated: number;
  /**
   * The event's usual precision (the most decimals its cached figures print with), on
   * calendar reads only; the service sends no such field.
   */
  decimals?: number;
}

/** The properties common to all occurrences of an indicator. */
export interface CalendarEvent {
  id: string;
  name: string;
  description: string | null;
  countryCode: string;
  currencyCode: string;
  categoryId: string | null;
  periodType: string | null;
  unit: string | null;
  potency: Potency | string | null;
  volatility: Volatility | string;
  isSpeech: boolean;
  isReport: boolean;
}

export interface Category {
  id: string;
  name: string;
}

export interface Asset {
  code: string;
  name: string;
  type: string;
}

export interface EventDetail {
  event: CalendarEvent | null;
  upcoming: EventDate[];
  history: EventDate[];
  watched: boolean;
}

export interface CalendarFilters {
  volatilities: Volatility[];
  countries: string[];
  categories: string[];
  text: string;
}

export const DEFAULT_CALENDAR_FILTERS: CalendarFilters = {
  volatilities: [],
  countries: [],
  categories: [],
  text: '',
};
