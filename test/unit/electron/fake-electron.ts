/** A hand-written stand-in for the `electron` module (Electron cannot be launched here). */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  id = FakeWebContents.nextId++;
  sent: [string, unknown][] = [];
  openHandler: ((d: { url: string }) => { action: string }) | null = null;
  send(channel: string, payload: unknown) {
    this.sent.push([channel, payload]);
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.openHandler = h;
  }
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  webContents = new FakeWebContents();
  visible = false;
  loaded: string | null = null;
  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.instances.push(this);
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return false;
  }
  async loadFile(f: string) {
    this.loaded = f;
  }
  async loadURL(u: string) {
    this.loaded = u;
  }
}

export const shell = { openExternal: vi.fn(async () => undefined) };

export const ipcMain = {
  handlers: new Map<string, (...args: unknown[]) => unknown>(),
  handle(channel: string, fn: (...args: unknown[]) => unknown) {
    this.handlers.set(channel, fn);
  },
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  },
};

export const ipcRenderer = {
  invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: null })),
  on: vi.fn(),
  removeListener: vi.fn(),
};

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown) {
    this.exposed.set(key, api);
  },
};

export class Notification extends EventEmitter {
  static supported = true;
  static shown: Notification[] = [];
  static isSupported() {
    return Notification.supported;
  }
  constructor(readonly options: { title: string; body: string; silent?: boolean }) {
    super();
  }
  show() {
    Notification.shown.push(this);
  }
}

export const app = Object.assign(new EventEmitter(), {
  lockAcquired: true,
  isPackaged: false,
  quit: vi.fn(),
  exit: vi.fn(),
  requestSingleInstanceLock: () => app.lockAcquired,
  setAppUserModelId: vi.fn(),
  getAppPath: () => '/app',
  getPath: () => '/tmp/macrobell-fake-userdata',
  whenReady: async () => undefined,
  setLoginItemSettings: vi.fn(),
  getLoginItemSettings: () => ({ openAtLogin: false }),
});

export const session = {
  defaultSession: {
    permissionHandler: null as null | ((wc: unknown, p: string, cb: (ok: boolean) => void) => void),
    checkHandler: null as null | (() => boolean),
    setPermissionRequestHandler(h: (wc: unknown, p: string, cb: (ok: boolean) => void) => void) {
      this.permissionHandler = h;
    },
    setPermissionCheckHandler(h: () => boolean) {
      this.checkHandler = h;
    },
    webRequest: { onHeadersReceived: vi.fn() },
  },
};

export class Tray extends EventEmitter {
  static instances: Tray[] = [];
  tooltip = '';
  menu: unknown = null;
  image: unknown = null;
  constructor(image: unknown) {
    super();
    this.image = image;
    Tray.instances.push(this);
  }
  setImage(i: unknown) {
    this.image = i;
  }
  setToolTip(t: string) {
    this.tooltip = t;
  }
  setContextMenu(m: unknown) {
    this.menu = m;
  }
  destroy() {}
}

export const Menu = { buildFromTemplate: (t: unknown) => ({ template: t }) };
export const nativeImage = {
  createFromPath: (p: string) => ({ path: p, setTemplateImage: vi.fn() }),
};
export const dialog = { showErrorBox: vi.fn() };

export default {
  app,
  BrowserWindow,
  shell,
  ipcMain,
  ipcRenderer,
  contextBridge,
  Notification,
  session,
  Tray,
  Menu,
  nativeImage,
  dialog,
};
