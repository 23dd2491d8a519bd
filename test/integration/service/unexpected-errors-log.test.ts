/**
 * A listener that throws where its emitter has no handler of its own reaches the running
 * process's log once, with the event's name — the app core's log while it runs, the relay's
 * while it serves — and never the console; stopped, the previous handler is back.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/node/log/logger.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { createAppService } from '../../../src/main/service.js';
import { startRelay } from '../../../src/relay/server.js';
import { Emitter } from '../../../src/shared/event.js';
import { waitFor } from '../../support/wait.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Fires an event whose one listener throws `message`. */
function throwInListener(name: string, message: string): void {
  const emitter = new Emitter<number>({ name });
  emitter.event(() => {
    throw new Error(message);
  });
  emitter.fire(1);
}

const linesWith = (file: string, text: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes(text));

/** The log (its writer stopped) holds one line of `message`, naming `event`. */
async function expectLoggedOnce(logFile: string, message: string, event: string): Promise<void> {
  await waitFor(() => linesWith(logFile, message).length > 0, 'the log line');
  const lines = linesWith(logFile, message);
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] as string)).toMatchObject({
    event,
    msg: `a listener of ${event} failed`,
  });
}

describe('listener errors reach the log', () => {
  it("go to the app core's log while it runs, once, with the event's name", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mb-unexpected-app-'));
    const logFile = join(dir, 'core.log');
    const service = await createAppService({
      dataDir: dir,
      mode: 'real',
      secretStore: new MemorySecretStore(),
      logFile,
      logLevel: 'info',
    });
    const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => undefined);
    await service.start();
    throwInListener('Test.onCoreThing', 'core listener broke');
    await service.stop();
    await expectLoggedOnce(logFile, 'core listener broke', 'Test.onCoreThing');
    expect(console).not.toHaveBeenCalled();
    // stopped: the log is no longer the handler
    throwInListener('Test.afterStop', 'after stop');
    expect(console).toHaveBeenCalledTimes(1);
    expect(linesWith(logFile, 'after stop')).toEqual([]);
  });

  it("go to the relay's log while it serves, once, with the event's name", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mb-unexpected-relay-'));
    const logFile = join(dir, 'relay.log');
    const logger = createLogger({ file: logFile, level: 'info' });
    const relay = await startRelay({
      dataDir: dir,
      secret: 's'.repeat(32),
      token: 't'.repeat(32),
      logger,
    });
    const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => undefined);
    throwInListener('Test.onRelayThing', 'relay listener broke');
    await relay.close();
    logger.flush();
    await expectLoggedOnce(logFile, 'relay listener broke', 'Test.onRelayThing');
    expect(console).not.toHaveBeenCalled();
    throwInListener('Test.afterClose', 'after close');
    expect(console).toHaveBeenCalledTimes(1);
  });
});
