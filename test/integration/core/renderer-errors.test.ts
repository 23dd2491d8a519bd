// @clock any-moment — a demo core for its log only: nothing of the demo's schedule is read
/**
 * The renderer's failure reaches the core's log through the app's API, as both hosts call
 * it (`reportRendererError`): the message, the screen and React's component stack, on the
 * real core with its real log file.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { waitFor } from '../../support/wait.js';

let service: AppService | null = null;
afterEach(async () => {
  await service?.stop();
  service = null;
});

describe("the renderer's failures in the core's log", () => {
  it('a boundary report is written with its screen and component stack', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mb-renderer-errors-'));
    const logFile = join(dataDir, 'logs', 'macrobell.log');
    service = await createAppService({
      dataDir,
      mode: 'demo',
      secretStore: new MemorySecretStore(),
      logFile,
      logLevel: 'info',
      demo: { autoplay: false, seed: 4 },
    });
    await service.api.reportRendererError({
      kind: 'boundary',
      message: 'test fault: calendar-throws',
      componentStack: '\n    at CalendarScreen\n    at ErrorBoundary',
      screen: 'calendar',
    });
    const line = await waitFor(() => {
      const text = readFileSync(logFile, 'utf8');
      return text.split('\n').find((l) => l.includes('renderer boundary')) ?? null;
    }, 'the log line');
    const entry = JSON.parse(line) as { renderer: Record<string, string>; msg: string };
    expect(entry.msg).toBe('renderer boundary');
    expect(entry.renderer).toMatchObject({
      message: 'test fault: calendar-throws',
      screen: 'calendar',
      componentStack: expect.stringContaining('CalendarScreen'),
    });
  });
});
