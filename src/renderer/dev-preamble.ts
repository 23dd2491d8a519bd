/**
 * Development only (Vite dev server, `npm run dev`): drop the inline React Refresh preamble
 * that @vitejs/plugin-react writes into index.html. The page's CSP (`script-src 'self'`, in
 * the meta tag and, in Electron, in the dev-server response header) refuses inline scripts,
 * so the preamble is imported as a module by main.tsx instead; without this the refused
 * script would only log a CSP violation on every load. Builds are untouched.
 */
import type { Plugin } from 'vite';

export const INLINE_PREAMBLE =
  /<script type="module">\s*import \{ injectIntoGlobalHook \} from "[^"]*@react-refresh";[\s\S]*?<\/script>\s*/;

export function noInlineRefreshPreamble(): Plugin {
  return {
    name: 'macrobell:no-inline-refresh-preamble',
    apply: 'serve',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace(INLINE_PREAMBLE, ''),
    },
  };
}
