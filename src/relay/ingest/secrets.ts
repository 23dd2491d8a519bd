/**
 * The relay's two secrets: the webhook path segment and the desktops' bearer token.
 * From the environment, else generated once (32 random bytes, base64url) and kept in
 * DATA/relay-secrets.json with mode 0600 so a restart keeps them.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { permissionProblem } from '../db/data-owner.js';

export interface RelaySecrets {
  secret: string;
  token: string;
  /** True when this call generated (at least one of) them: show them to the user once. */
  generated: boolean;
  /** Which ones were generated now (the others came from the environment or the file). */
  fresh: { secret: boolean; token: boolean };
}

const SECRETS_FILE = 'relay-secrets.json';
const value = z.string().regex(/^[A-Za-z0-9._~-]{8,256}$/, 'letters, digits, . _ ~ -; 8–256');
const stored = z.object({ secret: value.optional(), token: value.optional() });

export function secretsFile(dataDir: string): string {
  return join(dataDir, SECRETS_FILE);
}

function fromEnv(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const checked = value.safeParse(v);
  if (!checked.success)
    throw new Error(`${name} must be 8–256 URL-safe characters (letters, digits, . _ ~ -)`);
  return checked.data;
}

/** The secrets kept in DATA/relay-secrets.json (none when it does not exist); never writes. */
function keptSecrets(file: string): z.infer<typeof stored> {
  let kept: z.infer<typeof stored> = {};
  if (existsSync(file)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw permissionProblem(file, err) ?? err;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new Error(`${file} is not valid JSON: fix or delete it (new secrets will be made)`);
    }
    const checked = stored.safeParse(raw);
    if (!checked.success)
      throw new Error(`${file} does not hold {secret, token}: fix or delete it`);
    kept = checked.data;
  }
  return kept;
}

/**
 * `relay secrets show`: each secret and where it comes from, never generating or writing
 * anything (a node whose secrets are in its service's environment has no file to show).
 */
export function readSecrets(
  dataDir: string,
  env: NodeJS.ProcessEnv,
): { secret?: { value: string; from: string }; token?: { value: string; from: string } } {
  const file = secretsFile(dataDir);
  const kept = keptSecrets(file);
  const pick = (name: string, fileValue: string | undefined) => {
    const e = fromEnv(name, env);
    if (e) return { value: e, from: name };
    return fileValue ? { value: fileValue, from: file } : undefined;
  };
  return {
    secret: pick('MACROBELL_RELAY_SECRET', kept.secret),
    token: pick('MACROBELL_RELAY_TOKEN', kept.token),
  };
}

export function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv): RelaySecrets {
  const kept = keptSecrets(secretsFile(dataDir));
  const secret = fromEnv('MACROBELL_RELAY_SECRET', env) ?? kept.secret;
  const token = fromEnv('MACROBELL_RELAY_TOKEN', env) ?? kept.token;
  if (secret && token)
    return { secret, token, generated: false, fresh: { secret: false, token: false } };
  const next = {
    secret: secret ?? randomBytes(32).toString('base64url'),
    token: token ?? randomBytes(32).toString('base64url'),
  };
  saveSecrets(dataDir, next);
  return { ...next, generated: true, fresh: { secret: !secret, token: !token } };
}

export function saveSecrets(dataDir: string, secrets: { secret: string; token: string }): void {
  const file = secretsFile(dataDir);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  chmodSync(file, 0o600); // writeFileSync's mode applies only when it creates the file
}

/** The secret currently in the file (rotate-secret may have changed it), or null. */
export function fileSecret(dataDir: string): string | null {
  try {
    const checked = stored.safeParse(JSON.parse(readFileSync(secretsFile(dataDir), 'utf8')));
    return checked.success ? (checked.data.secret ?? null) : null;
  } catch {
    return null;
  }
}

/** Shown when secrets were generated: where they are, never the values (the journal keeps stdout). */
export function secretsNotice(dataDir: string, s: RelaySecrets): string {
  const what = [s.fresh.secret ? 'webhook path secret' : '', s.fresh.token ? 'desktop token' : '']
    .filter(Boolean)
    .join(' and ');
  return [
    `Generated a new ${what} in ${secretsFile(dataDir)} (mode 0600).`,
    `Show it with \`npm run relay -- secrets show --data ${dataDir}\`; register the relay with`,
    '`npm run relay -- register --public-url …`; give each trader a token with `relay users add NAME`.',
    'Serve the relay behind TLS (see docs/relay.md).',
    '',
  ].join('\n');
}
