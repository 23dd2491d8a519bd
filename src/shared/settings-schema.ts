/**
 * What the settings file may hold and what the renderer may patch: one zod schema each,
 * checked on every write (IPC, web mode) and on every read of settings.json.
 */
import { z } from 'zod';
import { VOLATILITIES } from './domain.js';
import { COUNTRY_CODES, CURRENCY_CODES, isCountryCode, isCurrencyCode } from './markets.js';
import { relayUrlSetting } from './relay-urls.js';
import { credentialUrlProblem } from './url-policy.js';

export const id = z.string().min(1).max(200);
export const culture = z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'a culture such as en-US');
export const isoDate = z.iso.datetime({ offset: true });
// Keys and tokens travel to these URLs: plain http only to this machine (url-policy.ts).
export const httpUrl = z
  .string()
  .max(2000)
  .superRefine((u, ctx) => {
    const problem = credentialUrlProblem(u);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export const volatility = z.enum(VOLATILITIES);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time such as 22:00');
export const shortList = z.array(z.string().min(1).max(100)).max(500);

export const alertRulesSchema = z.object({
  minVolatility: volatility,
  countries: shortList,
  currencies: shortList,
  watchedEventIds: shortList,
  changes: z.object({
    released: z.boolean(),
    revised: z.boolean(),
    // Rules saved before corrections had their own switch read as the default (on).
    corrected: z.boolean().default(true),
    rescheduled: z.boolean(),
    added: z.boolean(),
    removed: z.boolean(),
  }),
  newsEnabled: z.boolean(),
  newsKeywords: shortList,
  newsCategories: shortList,
  quietHours: z.object({
    enabled: z.boolean(),
    start: hhmm,
    end: hhmm,
    timeZone: z.string().min(1).max(100),
  }),
  reminderMinutes: z.number().int().min(0).max(1440),
  pausedUntil: z.number().int().nonnegative().nullable(),
  // Rules saved before the late window existed read as the default.
  latePrintMinutes: z.number().int().min(1).max(1440).default(15),
});

/** A list of codes from `known` only: anything else is named in the error, never saved. */
function codeList(what: string, known: readonly string[], isKnown: (c: string) => boolean) {
  return z
    .array(z.string().max(100))
    .max(known.length)
    .superRefine((codes, ctx) => {
      for (const code of codes)
        if (!isKnown(code))
          ctx.addIssue({
            code: 'custom',
            message: `"${code}" is not a ${what} code; use one of ${known.join(', ')}`,
          });
    });
}

/**
 * Rules as the user sends them: countries and currencies must be the calendar's codes.
 * (Rules already stored are read with the lenient schema above, so an old "USA" is shown
 * as unknown in the editor instead of costing the whole settings file.)
 */
export const alertRulesInputSchema = alertRulesSchema.extend({
  countries: codeList('country', COUNTRY_CODES, isCountryCode),
  currencies: codeList('currency', CURRENCY_CODES, isCurrencyCode),
});

export const calendarFiltersSchema = z.object({
  volatilities: z.array(volatility).max(4),
  countries: shortList,
  categories: shortList,
  text: z.string().max(200),
});

/** Settings as stored and as patched (every key optional in a patch). */
export const settingsSchema = z.object({
  connection: z.enum(['keys', 'desk']),
  serviceUrls: z.object({ auth: httpUrl, calendar: httpUrl, news: httpUrl }),
  language: z.string().regex(/^[a-z]{2}$/),
  cultures: z.array(culture).min(1).max(10),
  timeZone: z.string().min(1).max(100),
  hourCycle: z.enum(['h12', 'h23']),
  theme: z.enum(['system', 'light', 'dark']),
  relayUrl: relayUrlSetting.nullable(),
  polling: z.object({
    baseIntervalSec: z.number().int().min(5).max(86400),
    burstIntervalSec: z.number().min(0.2).max(60),
    burstLeadSec: z.number().int().min(0).max(600),
    burstTimeoutSec: z.number().int().min(5).max(3600),
  }),
  backfill: z.object({
    daysBack: z.number().int().min(0).max(90),
    daysAhead: z.number().int().min(0).max(90),
  }),
  calendarFilters: calendarFiltersSchema,
  allowRemoteImages: z.boolean(),
  startAtLogin: z.boolean(),
  alertRules: alertRulesSchema,
  sounds: z.object({ HIGH: z.boolean(), MEDIUM: z.boolean(), LOW: z.boolean() }),
  browserNotifications: z.boolean(),
  // Older settings files have none: withDefaults (settings-file.ts) fills in "off".
  newsWindow: z.object({
    enabled: z.boolean(),
    minutesBefore: z.number().int().min(0).max(120),
    minutesAfter: z.number().int().min(0).max(120),
    impacts: z.array(volatility).min(1).max(4),
    alerts: z.boolean(),
  }),
  squawk: z.object({
    prints: z.enum(['off', 'watched', 'watched-and-high']),
    consensus: z.boolean(),
  }),
});
export const settingsPatchSchema = settingsSchema.partial();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
