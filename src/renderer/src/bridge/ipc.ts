/** Electron: the preload's `window.macrobell`, exactly the shared contract. */
import type { PreloadBridge, RequestMethod } from '../../../shared/ipc.js';
import { apiFrom, BridgeError, type Bridge } from './bridge.js';

export function createIpcBridge(preload: PreloadBridge): Bridge {
  return {
    kind: 'ipc',
    api: apiFrom(async (method, input) => {
      const r = await preload.invoke(method as RequestMethod, input);
      if (!r.ok) throw new BridgeError(r.error.error, r.error.message);
      return r.value;
    }),
    on: (event, listener) => preload.on(event, listener),
    onConnection: () => () => undefined,
  };
}
