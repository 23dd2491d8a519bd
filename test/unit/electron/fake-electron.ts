/**
 * A hand-written stand-in for the `electron` module (Electron cannot be launched here).
 * It records what the shell does so tests can assert it; `resetFakeElectron()` between tests.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  id = FakeWebContents.nextId++;
  sent: [string, unknown][] = [];
  loading = true;
  openHandler: ((d: { url: string }) => { action: string }) | null = null;
  /** What executeJavaScript answers (the smoke test's page probe); set by tests. */
  pageAnswer: (code: string) => unknown = () => undefined;
  async executeJavaScript(code: string) {
    return this.pageAnswer(code);
  }
  send(channel: string, payload: unknown) {
    this.sent.push([channel, payload]);
  }
  isLoading() {
    return this.loading;
  }
  /** What Electron does when the page has loaded. */
  finishLoad() {
    this.loading = false;
    this.emit('did-finish-load');
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.openHandler = h;
  }
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  webContents = new FakeWebContents();
  visible = false;
  focused = false;
  destroyed = false;
  loaded: string | null = null;
  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.instances.push(this);
  }
  show() {
    this.visible = true;
  }
  /** Shown without taking the keyboard (the alert banner). */
  shownInactive = false;
  showInactive() {
    this.visible = true;
    this.shownInactive = true;
  }
  alwaysOnTop: false | string = false;
  setAlwaysOnTop(on: boolean, level = 'floating') {
    this.alwaysOnTop = on ? level : false;
  }
  hide() {
    this.visible = false;
    this.focused = false;
  }
  focus() {
    this.focused = true;
  }
  restore() {}
  /** The taskbar's (the dock's) attention, asked by flashFrame(true). */
  flashing = false;
  flashFrame(on: boolean) {
    this.flashing = on;
  }
  minimized = false;
  minimize() {
    this.minimized = true;
  }
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return this.destroyed;
  }
  isVisible() {
    return this.visible;
  }
  isFocused() {
    return this.focused;
  }
  async loadFile(f: string) {
    this.loaded = f;
  }
  async loadURL(u: string) {
    this.loaded = u;
  }
  /** What Electron does when the user clicks the close button. Returns true if it closed. */
  userClose(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (!prevented) this.destroyed = true;
    return !prevented;
  }
}

/** Start-menu shortcuts by path, as Windows would read them (readShortcutLink throws if absent). */
const shortcuts = new Map<string, { target: string; appUserModelId?: string }>();
export const shell = {
  openExternal: vi.fn(async (_url: string) => undefined),
  shortcuts,
  readShortcutLink(path: string) {
    const link = shortcuts.get(path.replaceAll('\\', '/'));
    if (!link) throw new Error(`Failed to read shortcut link ${path}`);
    return link;
  },
};

type Handler = (...args: unknown[]) => unknown;
export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, fn: Handler) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, fn);
  },
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  },
};

export const ipcRenderer = {
  invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: null }) as unknown),
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
  constructor(readonly options: { title: string; body: string; silent?: boolean; icon?: string }) {
    super();
  }
  /** What the fake OS does on show(): nothing (most OSes), or emit 'show' / 'failed'. */
  static answer: 'none' | 'show' | 'failed' = 'none';
  closed = false;
  close() {
    this.closed = true;
    this.emit('close');
  }
  show() {
    Notification.shown.push(this);
    if (Notification.answer === 'show') queueMicrotask(() => this.emit('show'));
    if (Notification.answer === 'failed')
      queueMicrotask(() => this.emit('failed', {}, 'The notification platform is unavailable'));
  }
}

export const app = Object.assign(new EventEmitter(), {
  lockAcquired: true,
  isPackaged: false,
  loginItem: { openAtLogin: false },
  quit: vi.fn(() => {
    // Like Electron: before-quit, then will-quit (which the shell may defer).
    app.emit('before-quit', { preventDefault: () => undefined });
    app.emit('will-quit', { preventDefault: () => undefined });
  }),
  exit: vi.fn(),
  requestSingleInstanceLock: () => app.lockAcquired,
  setAppUserModelId: vi.fn(),
  protocolClient: false,
  isDefaultProtocolClient: (_scheme: string) => app.protocolClient,
  setAsDefaultProtocolClient: vi.fn((_scheme: string) => (app.protocolClient = true)),
  getAppPath: () => '/app',
  paths: new Map<string, string>(),
  getPath: vi.fn((name: string) => app.paths.get(name) ?? '/tmp/macrobell-fake-userdata'),
  setPath: vi.fn((name: string, value: string) => void app.paths.set(name, value)),
  getVersion: () => '0.1.0',
  whenReady: async () => undefined,
  setLoginItemSettings: vi.fn((s: { openAtLogin: boolean }) => {
    app.loginItem = { openAtLogin: s.openAtLogin };
  }),
  getLoginItemSettings: () => app.loginItem,
});

type PermissionHandler = (wc: unknown, p: string, cb: (ok: boolean) => void) => void;
type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  cb: (r: { responseHeaders?: Record<string, string[]> }) => void,
) => void;
type ProtocolHandler = (request: Request) => Promise<Response> | Response;
export const protocol = {
  privileged: [] as unknown[],
  registerSchemesAsPrivileged(schemes: unknown[]) {
    this.privileged.push(...schemes);
  },
};

export const session = {
  defaultSession: {
    protocol: {
      handlers: new Map<string, ProtocolHandler>(),
      handle(scheme: string, handler: ProtocolHandler) {
        if (this.handlers.has(scheme)) throw new Error(`${scheme} is already handled`);
        this.handlers.set(scheme, handler);
      },
    },
    permissionHandler: null as null | PermissionHandler,
    checkHandler: null as null | ((...a: unknown[]) => boolean),
    headersListener: null as null | HeadersListener,
    setPermissionRequestHandler(h: PermissionHandler) {
      this.permissionHandler = h;
    },
    setPermissionCheckHandler(h: () => boolean) {
      this.checkHandler = h;
    },
    webRequest: {
      onHeadersReceived(l: HeadersListener) {
        session.defaultSession.headersListener = l;
      },
    },
  },
};

export interface FakeMenuItem {
  label?: string;
  type?: string;
  role?: string;
  enabled?: boolean;
  checked?: boolean;
  click?: (item: { checked: boolean }) => void;
  submenu?: FakeMenuItem[];
}

export class Tray extends EventEmitter {
  static instances: Tray[] = [];
  tooltip = '';
  menu: { template: FakeMenuItem[] } | null = null;
  image: { path: string } | null = null;
  destroyed = false;
  constructor(image: { path: string }) {
    super();
    this.image = image;
    Tray.instances.push(this);
  }
  setImage(i: { path: string }) {
    this.image = i;
  }
  setToolTip(t: string) {
    this.tooltip = t;
  }
  /** macOS: text beside the icon. */
  title = '';
  setTitle(t: string) {
    this.title = t;
  }
  setContextMenu(m: { template: FakeMenuItem[] }) {
    this.menu = m;
  }
  destroy() {
    this.destroyed = true;
  }
  isDestroyed() {
    return this.destroyed;
  }
  /** The menu item with this label (searching submenus), or a failing test. */
  item(label: string): FakeMenuItem {
    const walk = (items: FakeMenuItem[]): FakeMenuItem | undefined =>
      items.find((i) => i.label === label) ??
      items.map((i) => (i.submenu ? walk(i.submenu) : undefined)).find(Boolean);
    const found = walk(this.menu?.template ?? []);
    if (!found) throw new Error(`no tray menu item "${label}" in ${JSON.stringify(this.labels())}`);
    return found;
  }
  labels(): string[] {
    return (this.menu?.template ?? []).flatMap((i) => (i.label ? [i.label] : []));
  }
}

export const Menu = { buildFromTemplate: (t: FakeMenuItem[]) => ({ template: t }) };
export const nativeImage = {
  createFromPath: (p: string) => ({ path: p, setTemplateImage: vi.fn() }),
};
export const crashReporter = {
  start: vi.fn((_o: { uploadToServer: boolean; submitURL?: string }) => undefined),
};
export const dialog = {
  showErrorBox: vi.fn(),
  showMessageBox: vi.fn(async (_o: { message: string }) => ({ response: 0 })),
};

export function resetFakeElectron(): void {
  BrowserWindow.instances = [];
  Tray.instances = [];
  Notification.shown = [];
  Notification.supported = true;
  Notification.answer = 'none';
  shell.shortcuts.clear();
  ipcMain.handlers.clear();
  contextBridge.exposed.clear();
  app.removeAllListeners();
  app.lockAcquired = true;
  app.protocolClient = false;
  app.isPackaged = false;
  app.loginItem = { openAtLogin: false };
  app.paths.clear();
  session.defaultSession.permissionHandler = null;
  session.defaultSession.protocol.handlers.clear();
  protocol.privileged = [];
  session.defaultSession.checkHandler = null;
  session.defaultSession.headersListener = null;
  vi.clearAllMocks();
}

export default {
  app,
  BrowserWindow,
  shell,
  ipcMain,
  ipcRenderer,
  contextBridge,
  Notification,
  session,
  protocol,
  Tray,
  Menu,
  nativeImage,
  dialog,
  crashReporter,
};
