import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/shared/domain.js';
import { SettingsFile, applyEnvOverrides } from '../../../src/main/config/settings-file.js';

const dir = () => mkdtempSync(join(tmpdir(), 'mb-settings-'));

describe('SettingsFile', () => {
  it('starts from defaults and persists validated updates', () => {
    const d = dir();
    const f = SettingsFile.inDir(d);
    expect(f.get()).toEqual(DEFAULT_SETTINGS);
    f.update({ timeZone: 'Europe/London', hourCycle: 'h12' });
    const again = SettingsFile.inDir(d);
    expect(again.get().timeZone).toBe('Europe/London');
    expect(again.get().hourCycle).toBe('h12');
  });

  it('rejects an invalid patch with a readable error and keeps the old value', () => {
    const f = SettingsFile.inDir(dir());
    expect(() => f.update({ relayUrl: 'ftp://nope' } as never)).toThrow(/http/);
    expect(f.get().relayUrl).toBeNull();
  });

  it('fills keys an older file lacks from the defaults', () => {
    const d = dir();
    writeFileSync(join(d, 'settings.json'), JSON.stringify({ cultures: ['de-DE'] }));
    const f = SettingsFile.inDir(d);
    expect(f.get().cultures).toEqual(['de-DE']);
    expect(f.get().alertRules).toEqual(DEFAULT_SETTINGS.alertRules);
    expect(f.problem).toBeNull();
  });

  it('moves a damaged file aside instead of losing it, and says where', () => {
    const d = dir();
    writeFileSync(join(d, 'settings.json'), '{ not json');
    const f = SettingsFile.inDir(d);
    expect(f.get()).toEqual(DEFAULT_SETTINGS);
    expect(f.problem).toMatch(/invalid-/);
    const aside = readdirSync(d).find((n) => n.startsWith('settings.json.invalid-'));
    expect(aside).toBeDefined();
    expect(readFileSync(join(d, aside as string), 'utf8')).toBe('{ not json');
  });

  it('lets the environment override service URLs and refuses bad ones', () => {
    const s = applyEnvOverrides(DEFAULT_SETTINGS, {
      MACROBELL_AUTH_URL: 'http://127.0.0.1:9/auth',
    });
    expect(s.serviceUrls.auth).toBe('http://127.0.0.1:9/auth');
    expect(() => applyEnvOverrides(DEFAULT_SETTINGS, { MACROBELL_NEWS_URL: 'nope' })).toThrow(
      /MACROBELL/,
    );
  });
});
