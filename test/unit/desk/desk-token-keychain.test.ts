/**
 * The desk's personal token comes from the keychain; a keychain that cannot be read is an
 * error the relay stream's status shows, never a silent "no token" (issue #42). An explicit
 * MACROBELL_RELAY_TOKEN is the one fallback.
 */
import { describe, expect, it } from 'vitest';
import { createDeskConnection } from '../../../src/main/auth/desk-token-source.js';
import { DEFAULT_SETTINGS } from '../../../src/shared/domain.js';

const locked = async (): Promise<string | null> => {
  throw new Error('the keyring is locked');
};
const desk = (env: NodeJS.ProcessEnv, keychainToken: () => Promise<string | null>) =>
  createDeskConnection({
    settings: () => ({ ...DEFAULT_SETTINGS, connection: 'desk', relayUrl: 'https://relay.test' }),
    env,
    keychainToken,
    keysStored: false,
  });

describe('the desk token when the keychain cannot be read', () => {
  it('is the keychain error, not "no token"', async () => {
    await expect(desk({}, locked).relayToken()).rejects.toThrow('the keyring is locked');
  });

  it('is the environment token when one is set', async () => {
    expect(await desk({ MACROBELL_RELAY_TOKEN: 'env-token' }, locked).relayToken()).toBe(
      'env-token',
    );
  });

  it('is the keychain token when the keychain answers', async () => {
    const conn = desk({ MACROBELL_RELAY_TOKEN: 'env-token' }, async () => 'kept-token');
    expect(await conn.relayToken()).toBe('kept-token');
  });
});
