/**
 * The one settings file (settings.json in the data folder), validated on every read
 * and write. A damaged file is moved aside (never deleted) and defaults are used, with
 * the reason kept for the status bar. Environment variables override the service URLs
 * and relay URL for headless use.
 */
import { existsSync, readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/domain.js';
import {
  settingsSchema,
  settingsPatchSchema,
  type SettingsPatch,
} from '../../shared/settings-schema.js';
import { z } from 'zod';
import { messageOf } from '../../shared/error-message.js';

export const SETTINGS_FILE = 'settings.json';

export interface SettingsLoadResult {
  settings: Settings;
  /** Set when the file on disk was unusable and was moved aside. */
  problem: string | null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fill what a (possibly older) file lacks from the defaults, recursively. */
export function withDefaults<T>(defaults: T, value: unknown): T {
  if (!isPlainObject(defaults) || !isPlainObject(value)) return (value ?? defaults) as T;
  const out: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(value)) {
    const d = (defaults as Record<string, unknown>)[k];
    out[k] = isPlainObject(d) && isPlainObject(v) ? withDefaults(d, v) : v;
  }
  return out as T;
}

export function applyEnvOverrides(settings: Settings, env: NodeJS.ProcessEnv): Settings {
  const urls = { ...settings.serviceUrls };
  if (env.MACROBELL_AUTH_URL) urls.auth = env.MACROBELL_AUTH_URL;
  if (env.MACROBELL_CALENDAR_URL) urls.calendar = env.MACROBELL_CALENDAR_URL;
  if (env.MACROBELL_NEWS_URL) urls.news = env.MACROBELL_NEWS_URL;
  const relayUrl = env.MACROBELL_RELAY_URL ?? settings.relayUrl;
  const next = { ...settings, serviceUrls: urls, relayUrl };
  const checked = settingsSchema.safeParse(next);
  if (!checked.success) {
    throw new Error(`Invalid MACROBELL_* environment variable:\n${z.prettifyError(checked.error)}`);
  }
  return next;
}

export class SettingsFile {
  private current: Settings;
  readonly problem: string | null;

  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
  ) {
    const loaded = this.load();
    this.current = loaded.settings;
    this.problem = loaded.problem;
  }

  static inDir(dataDir: string): SettingsFile {
    return new SettingsFile(join(dataDir, SETTINGS_FILE));
  }

  get(): Settings {
    return this.current;
  }

  /** Validate a patch, merge it, persist atomically (write + rename), return the result. */
  update(patch: SettingsPatch): Settings {
    const parsedPatch = settingsPatchSchema.parse(patch);
    const next = settingsSchema.parse({ ...this.current, ...parsedPatch }) as Settings;
    this.write(next);
    this.current = next;
    return next;
  }

  private load(): SettingsLoadResult {
    if (!existsSync(this.path)) return { settings: DEFAULT_SETTINGS, problem: null };
    let reason: string;
    try {
      const json: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      const merged = withDefaults(DEFAULT_SETTINGS, json);
      const parsed = settingsSchema.safeParse(merged);
      if (parsed.success) return { settings: parsed.data as Settings, problem: null };
      reason = z.prettifyError(parsed.error);
    } catch (err) {
      reason = messageOf(err);
    }
    const aside = `${this.path}.invalid-${this.now()}`;
    renameSync(this.path, aside);
    return {
      settings: DEFAULT_SETTINGS,
      problem: `Settings file ${this.path} was invalid (${reason}); it was kept as ${aside} and defaults are in use.`,
    };
  }

  private write(settings: Settings): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
  }
}
