/** Electron's security checklist, in one place. */
import { shell, type Session, type WebContents } from 'electron';

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

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Open only http(s) links, in the system browser. */
export async function openExternalSafely(url: string): Promise<boolean> {
  if (!isHttpUrl(url)) return false;
  await shell.openExternal(url);
  return true;
}

/** Is this URL the app's own page (file:// of our index.html, or the dev server)? */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const u = new URL(url);
    const a = new URL(appUrl);
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
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalSafely(url);
    return { action: 'deny' };
  });
}

/** Deny every permission (camera, geolocation, notifications from the page…): the main process shows notifications itself. The CSP header covers dev-server pages; built pages carry it in index.html. */
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
