/** The IPC contract refuses alert rules naming places no release carries, with a clear error. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../../src/shared/domain.js';
import { InvalidRequestError, parseRequest } from '../../../src/shared/ipc.js';

describe('alert rules at the IPC boundary', () => {
  it('takes the calendar’s country and currency codes', () => {
    const rules = { ...DEFAULT_ALERT_RULES, countries: ['US', 'EMU'], currencies: ['EUR'] };
    expect(parseRequest('setAlertRules', rules)).toEqual(rules);
    expect(
      parseRequest('updateSettings', { alertRules: { ...rules, countries: [] } }).alertRules
        ?.countries,
    ).toEqual([]);
  });

  it('refuses "USA" (and a lower-case "usd") with a message naming it and the codes to use', () => {
    const bad = { ...DEFAULT_ALERT_RULES, countries: ['USA'] };
    expect(() => parseRequest('setAlertRules', bad)).toThrow(InvalidRequestError);
    expect(() => parseRequest('setAlertRules', bad)).toThrow(
      /"USA" is not a country code; use one of US, EMU, DE.*→ at countries/,
    );
    expect(() =>
      parseRequest('updateSettings', {
        alertRules: { ...DEFAULT_ALERT_RULES, currencies: ['usd'] },
      }),
    ).toThrow(/"usd" is not a currency code; use one of USD, EUR.*→ at alertRules\.currencies/);
  });
});
