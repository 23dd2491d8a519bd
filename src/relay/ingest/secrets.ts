/**
 * The relay's two secrets: the webhook path segment and the desktops' bearer token.
 * From the environment, else generated once (32 random bytes, base64url) and kept in
 * DATA/relay-secrets.json with mode 0600 so a restart keeps them. During a rotation the
 * webhook secret may be a list, `new,old`: the first is the one registered, every one is
 * accepted (the service may still retry a delivery to the old URL).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { permissionProblem } from '../db/data-owner.js';

export interface RelaySecrets {
  /** The webhook secret to register (the first of the list). */
  secret: string;
  /** Every webhook secret a delivery may carry: `secret` first, then the retiring ones. */
  accepted: string[];
  token: string;
  /** True when this call generated (at least one of) them: show them to the user once. */
  generated: boolean;
  /** Which ones were generated now (the others came from the environment or the file). */
  fresh: { secret: boolean; token: boolean };
}

const SECRETS_FILE = 'relay-secrets.json';
const value = z.string().regex(/^[A-Za-z0-9._~-]{8,256}$/, 'letters, digits, . _ ~ -; 8–256');
/** One secret, or a comma-separated list of them (a rotation window: `new,old`). */
const secretList = z
  .string()
  .refine((v) => v.split(',').every((s) => value.safeParse(s).success), 'a list of secrets');
const stored = z.object({ secret: secretList.optional(), token: value.optional() });

/** The secrets of a `new,old` list, in order. */
export function splitSecrets(list: string): string[] {
  return list.split(',');
}

export function secretsFile(dataDir: string): string {
  return join(dataDir, SECRETS_FILE);
}

function fromEnv(name: string, env: NodeJS.ProcessEnv, list = false): string | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const checked = (list ? secretList : value).safeParse(v);
  if (!checked.success)
    throw new Error(
      `${name} must be 8–256 URL-safe characters (letters, digits, . _ ~ -)${list ? ', or a comma-separated list of such secrets (new,old)' : ''}`,
    );
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
  const pickList = (name: string, fileValue: string | undefined) => {
    const e = fromEnv(name, env, true);
    if (e) return { value: e, from: name };
    return fileValue ? { value: fileValue, from: file } : undefined;
  };
  const pick = (name: string, fileValue: string | undefined) => {
    const e = fromEnv(name, env);
    if (e) return { value: e, from: name };
    return fileValue ? { value: fileValue, from: file } : undefined;
  };
  return {
    secret: pickList('MACROBELL_RELAY_SECRET', kept.secret),
    token: pick('MACROBELL_RELAY_TOKEN', kept.token),
  };
}

export function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv): RelaySecrets {
  const kept = keptSecrets(secretsFile(dataDir));
  const secret = fromEnv('MACROBELL_RELAY_SECRET', env, true) ?? kept.secret;
  const token = fromEnv('MACROBELL_RELAY_TOKEN', env) ?? kept.token;
  if (secret && token) {
    const accepted = splitSecrets(secret);
    return {
      secret: accepted[0] as string,
      accepted,
      token,
      generated: false,
      fresh: { secret: false, token: false },
    };
  }
  const next = {
    secret: secret ?? randomBytes(32).toString('base64url'),
    token: token ?? randomBytes(32).toString('base64url'),
  };
  saveSecrets(dataDir, next);
  const accepted = splitSecrets(next.secret);
  return {
    ...next,
    secret: accepted[0] as string,
    accepted,
    generated: true,
    fresh: { secret: !secret, token: !token },
  };
}

/** A new webhook secret: 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function saveSecrets(dataDir: string, secrets: { secret: string; token: string }): void {
  const file = secretsFile(dataDir);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  chmodSync(file, 0o600); // writeFileSync's mode applies only when it creates the file
}

/** Puts a webhook secret (or a `new,old` list) in the file, keeping the token it holds. */
export function writeWebhookSecret(dataDir: string, secret: string): void {
  const file = secretsFile(dataDir);
  const kept = keptSecrets(file);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...kept, secret }), { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The webhook secrets currently in the file (rotate-secret may have changed them). */
export function fileSecrets(dataDir: string): string[] {
  try {
    const checked = stored.safeParse(JSON.parse(readFileSync(secretsFile(dataDir), 'utf8')));
    return checked.success && checked.data.secret ? splitSecrets(checked.data.secret) : [];
  } catch {
    return [];
  }
}

/** The file's contents as they are (null: no file), to put back when a rotation fails. */
export function secretsFileSnapshot(dataDir: string): string | null {
  const file = secretsFile(dataDir);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

export function restoreSecretsFile(dataDir: string, snapshot: string | null): void {
  const file = secretsFile(dataDir);
  if (snapshot === null) rmSync(file, { force: true });
  else {
    writeFileSync(file, snapshot, { mode: 0o600 });
    chmodSync(file, 0o600);
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
