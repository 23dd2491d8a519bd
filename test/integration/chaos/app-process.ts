/**
 * The app core as its own process for the chaos test: the real service (createAppService)
 * with keys and the relay token from the environment (an in-memory keychain), printing
 * one JSON line per alert and per connection-state change, and its alert history on exit.
 */
import { join } from 'node:path';
import { createAppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';

const env = process.env;
const dataDir = env.CHAOS_DATA_DIR as string;
const secrets = new MemorySecretStore();
await secrets.set('publicKey', env.CHAOS_PUBLIC_KEY as string);
await secrets.set('privateKey', env.CHAOS_PRIVATE_KEY as string);
await secrets.set('relayToken', env.CHAOS_RELAY_TOKEN as string);

const out = (line: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ at: Date.now(), ...line })}\n`);

const service = await createAppService({
  dataDir,
  mode: 'real',
  secretStore: secrets,
  logFile: join(dataDir, 'logs', 'macrobell.log'),
  env,
});
let lastState = '';
service.on('status', (s) => {
  if (s.connection.state === lastState) return;
  lastState = s.connection.state;
  out({ t: 'state', state: s.connection.state, reason: s.connection.reason });
});
service.on('alert', (a) => {
  if (a.target.type === 'eventDate') out({ t: 'alert', kind: a.kind, id: a.target.eventDateId });
});
// A host (Electron, the web server) keeps the process alive; the core's timers are unref'd.
const keepAlive = setInterval(() => undefined, 1 << 30);
await service.start();
out({ t: 'ready', state: (await service.api.getStatus()).connection.state });

process.on('SIGTERM', () => {
  void (async () => {
    const alerts = await service.api.listAlerts({ limit: 1000 });
    out({
      t: 'history',
      alerts: alerts.flatMap((a) =>
        a.target.type === 'eventDate' ? [{ kind: a.kind, id: a.target.eventDateId }] : [],
      ),
    });
    await service.stop();
    clearInterval(keepAlive);
    process.exit(0);
  })();
});
