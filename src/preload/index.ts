/**
 * The preload exposes exactly the shared contract as `window.macrobell` — never
 * ipcRenderer itself. Sandboxed preloads are CommonJS; electron-vite bundles this.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_REQUEST_CHANNEL, ipcPushChannel, PUSH_EVENTS } from '../shared/channels.js';
import type { PreloadBridge, PushEvent } from '../shared/ipc.js';

export const bridge: PreloadBridge = {
  invoke: (method, input) => ipcRenderer.invoke(IPC_REQUEST_CHANNEL, method, input),
  on(event, listener) {
    if (!(PUSH_EVENTS as readonly string[]).includes(event)) return () => undefined;
    const channel = ipcPushChannel(event as PushEvent);
    const wrapped = (_e: unknown, payload: unknown) => listener(payload as never);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
  platform: process.platform,
};

contextBridge.exposeInMainWorld('macrobell', bridge);
