/**
 * The preload exposes exactly the shared contract as `window.macrobell` — never
 * ipcRenderer itself. Sandboxed preloads are CommonJS; electron-vite bundles this.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_REQUEST_CHANNEL, ipcPushChannel, PUSH_EVENTS } from '../shared/channels.js';
import type { PreloadBridge } from '../shared/ipc.js';

export const bridge: PreloadBridge = {
  invoke: (method, input) => ipcRenderer.invoke(IPC_REQUEST_CHANNEL, method, input),
  on(event, listener) {
    // the renderer may name anything: only the contract's pushes get a channel
    if (!PUSH_EVENTS.includes(event)) return () => undefined;
    const channel = ipcPushChannel(event);
    const wrapped = (_e: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
  platform: process.platform,
};

contextBridge.exposeInMainWorld('macrobell', bridge);
