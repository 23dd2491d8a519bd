import type { PreloadBridge } from '../../../shared/ipc.js';
import type { Bridge } from './bridge.js';
import { createHttpBridge } from './http.js';
import { createIpcBridge } from './ipc.js';

export type { Bridge, Connection } from './bridge.js';
export { BridgeError, apiFrom } from './bridge.js';

/** Electron's preload present → IPC; otherwise web mode over HTTP. */
export function detectBridge(): Bridge {
  const preload = (window as unknown as { macrobell?: PreloadBridge }).macrobell;
  return preload ? createIpcBridge(preload) : createHttpBridge();
}
