/** Electron's security checklist, in one place. */
import { protocol, shell, type Session, type WebContents } from 'electron';
import { CSP } from '../../shared/csp.js';
import { APP_SCHEME, handleAppRequest } from './app-protocol.js';

export { CSP };

export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const;

export function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Open only http(s) links, in the system browser. The one place that calls openExternal. */
export async function openExternalSafely(url: string): Promise<boolean> {
  if (!isHttpUrl(url)) return false;
  await shell.openExternal(url);
  return true;
}

/** Is this URL the app's own page (app://macrobell/…, or the dev server)? */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const u = new URL(url);
    const a = new URL(appUrl);
    // Custom schemes have an opaque origin in WHATWG URL: compare scheme and host.
    if (a.protocol === `${APP_SCHEME}:`) return u.protocol === a.protocol && u.host === a.host;
    if (a.protocol === 'file:') return u.protocol === 'file:' && u.pathname === a.pathname;
    return u.origin === a.origin;
  } catch {
    return false;
  }
}

// Every webContents passes through here twice (createWindow and web-contents-created);
// listeners must be added once, or a blocked link would open twice.
const hardened = new WeakSet<WebContents>();

/** Block navigation away from the app, new windows, permission requests and webviews. */
export function hardenContents(contents: WebContents, appUrl: string): void {
  if (hardened.has(contents)) return;
  hardened.add(contents);
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appUrl)) {
      event.preventDefault();
      void openExternalSafely(url);
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, appUrl)) event.preventDefault();
  });
  // Sub-frames (an iframe in hostile post HTML, should one slip through) never leave the app.
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !isAppUrl(event.url, appUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalSafely(url);
    return { action: 'deny' };
  });
}

/**
 * Before the app is ready: app:// is a standard, secure scheme (so 'self', relative URLs
 * and storage work as on https). `codeCache`: V8 keeps the renderer's compiled code between
 * launches, as it does for https (off by default for custom schemes), so a start does not
 * compile the bundle again.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

/** Serve the built renderer on app:// in this session (CSP header on every response). */
export function serveAppProtocol(session: Session, rendererDir: string): void {
  session.protocol.handle(APP_SCHEME, (request) => handleAppRequest(request, rendererDir));
}

/** Deny every permission (camera, geolocation, notifications from the page…): the main process shows notifications itself. The CSP header covers dev-server pages here; app:// sets its own. */
export function hardenSession(session: Session, devServer: boolean): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  if (devServer) {
    session.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] },
      });
    });
  }
}
