/** The relay's two secrets: from the environment, else generated once and kept (0600). */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RelaySecrets {
  secret: string;
  token: string;
  generated: boolean;
}

export function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv): RelaySecrets {
  const file = join(dataDir, 'relay-secrets.json');
  let stored: Partial<RelaySecrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<RelaySecrets>;
  const secret = env.MACROBELL_RELAY_SECRET ?? stored.secret;
  const token = env.MACROBELL_RELAY_TOKEN ?? stored.token;
  if (secret && token) return { secret, token, generated: false };
  const next = {
    secret: secret ?? randomBytes(32).toString('base64url'),
    token: token ?? randomBytes(32).toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(next), { mode: 0o600 });
  return { ...next, generated: true };
}
