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
import type { Settings, TestAlertResult } from '../../shared/domain.js';
import { apiError, toApiError } from '../errors.js';
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

export interface IpcHooks {
  /** Settings the user saved (e.g. to apply "start at login" to the OS). */
  onSettingsSaved?(settings: Settings): void;
  /** "Restart to update": true when an update was ready and is being installed. */
  onInstallUpdate?(): boolean;
  /** "Send test alert": the core raises it, the shell reports what the OS did. */
  onTestAlert?(): Promise<TestAlertResult>;
  /** The in-app banner was dismissed. */
  onBannerDismissed?(): void;
}

export async function handleRequest(
  service: Pick<MacrobellService, 'api'>,
  method: unknown,
  input: unknown,
  hooks: IpcHooks = {},
): Promise<RequestResult<unknown>> {
  try {
    if (!isRequestMethod(method))
      return {
        ok: false,
        error: apiError('unknown_method', `Unknown method ${String(method)}`),
      };
    const parsed = parseRequest(method, input ?? undefined);
    if (method === 'openExternal') {
      const opened = await openExternalSafely((parsed as { url: string }).url);
      return opened
        ? { ok: true, value: null }
        : {
            ok: false,
            error: apiError('invalid_request', 'Only http(s) links can be opened.'),
          };
    }
    if (method === 'installUpdate') {
      return hooks.onInstallUpdate?.()
        ? { ok: true, value: null }
        : { ok: false, error: apiError('no_update') };
    }
    if (method === 'sendTestAlert' && hooks.onTestAlert)
      return { ok: true, value: await hooks.onTestAlert() };
    if (method === 'dismissAlertBanner') hooks.onBannerDismissed?.();
    const call = service.api[method] as (i: unknown) => Promise<unknown>;
    const value = (await call(parsed)) ?? null;
    if (method === 'updateSettings' && hooks.onSettingsSaved) {
      try {
        hooks.onSettingsSaved(value as Settings);
      } catch {
        // The settings are saved; an OS integration failing must not report them unsaved.
      }
    }
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: toApiError(err) };
  }
}

export function registerIpc(
  service: MacrobellService,
  getWindow: () => BrowserWindow | null,
  appUrl: string,
  hooks: IpcHooks = {},
): () => void {
  ipcMain.handle(IPC_REQUEST_CHANNEL, async (event, method: unknown, input: unknown) => {
    if (!senderAllowed(event, getWindow(), appUrl)) {
      return {
        ok: false,
        error: apiError('forbidden'),
      } satisfies RequestResult<never>;
    }
    return handleRequest(service, method, input, hooks);
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
