/**
 * The IPC boundary: one channel for requests, sender checked (our window, our page),
 * method and input validated against the shared contract, errors returned — never thrown
 * — across IPC. Pushes go out on their own channels.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import {
  IPC_REQUEST_CHANNEL,
  ipcPushChannel,
  isRequestMethod,
  parseRequest,
  PUSH_EVENTS,
  type RequestResult,
} from '../../shared/ipc.js';
import { toApiError } from '../errors.js';
import type { MacrobellService } from '../service-contract.js';
import { isAppUrl, openExternalSafely } from './security.js';

export function senderAllowed(
  event: Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>,
  win: BrowserWindow | null,
  appUrl: string,
): boolean {
  if (!win || event.sender.id !== win.webContents.id) return false;
  const url = event.senderFrame?.url;
  return typeof url === 'string' && isAppUrl(url, appUrl);
}

export async function handleRequest(
  service: Pick<MacrobellService, 'api'>,
  method: unknown,
  input: unknown,
): Promise<RequestResult<unknown>> {
  try {
    if (!isRequestMethod(method))
      return {
        ok: false,
        error: { error: 'unknown_method', message: `Unknown method ${String(method)}` },
      };
    const parsed = parseRequest(method, input ?? undefined);
    if (method === 'openExternal') {
      const opened = await openExternalSafely((parsed as { url: string }).url);
      return opened
        ? { ok: true, value: null }
        : {
            ok: false,
            error: { error: 'invalid_request', message: 'Only http(s) links can be opened.' },
          };
    }
    const call = service.api[method] as (i: unknown) => Promise<unknown>;
    return { ok: true, value: (await call(parsed)) ?? null };
  } catch (err) {
    return { ok: false, error: toApiError(err) };
  }
}

export function registerIpc(
  service: MacrobellService,
  getWindow: () => BrowserWindow | null,
  appUrl: string,
): () => void {
  ipcMain.handle(IPC_REQUEST_CHANNEL, async (event, method: unknown, input: unknown) => {
    if (!senderAllowed(event, getWindow(), appUrl)) {
      return {
        ok: false,
        error: { error: 'forbidden', message: 'Request from an unknown sender.' },
      } satisfies RequestResult<never>;
    }
    return handleRequest(service, method, input);
  });
  const offs = PUSH_EVENTS.map((name) =>
    service.on(name, (payload) => {
      const win = getWindow();
      if (win && !win.isDestroyed()) win.webContents.send(ipcPushChannel(name), payload);
    }),
  );
  return () => {
    ipcMain.removeHandler(IPC_REQUEST_CHANNEL);
    offs.forEach((off) => off());
  };
}
