// The renderer's CSP refuses inline scripts in development too; React Refresh's preamble is
// imported by main.tsx, and the inline copy the React plugin writes in dev is dropped.
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INLINE_PREAMBLE, noInlineRefreshPreamble } from '../../../src/renderer/dev-preamble.js';

const root = resolve(import.meta.dirname, '../../..');
const html = readFileSync(resolve(root, 'src/renderer/index.html'), 'utf8');

describe('renderer CSP in development', () => {
  it('keeps script-src to self in index.html (no inline scripts allowed, dev or build)', () => {
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    const scriptSrc = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('script-src'));
    expect(scriptSrc).toBe("script-src 'self'");
  });

  it('imports the refresh preamble as a module before anything else', () => {
    const main = readFileSync(resolve(root, 'src/renderer/src/main.tsx'), 'utf8');
    const imports = main.match(/^import .+$/gm) ?? [];
    expect(imports[0]).toBe("import '@vitejs/plugin-react/preamble';");
  });

  it("drops the plugin's inline preamble when serving, and only then", () => {
    // the exact tag the React plugin injects in dev (its preamble code, as a module script)
    const injected = `<script type="module">${react.preambleCode.replace('__BASE__', '/')}</script>\n`;
    expect(injected).toMatch(INLINE_PREAMBLE);
    const plugin = noInlineRefreshPreamble();
    expect(plugin.apply).toBe('serve');
    const hook = plugin.transformIndexHtml as {
      order: string;
      handler: (html: string) => string;
    };
    expect(hook.order).toBe('post');
    const page = html.replace('<head>', `<head>\n${injected}`);
    const out = hook.handler(page);
    expect(out).not.toContain('injectIntoGlobalHook');
    expect(out).toContain('<script type="module" src="./src/main.tsx"></script>');
  });

  it('wires the plugin into both renderer builds (web mode and electron-vite)', () => {
    for (const f of ['vite.renderer.config.ts', 'electron.vite.config.ts'])
      expect(readFileSync(resolve(root, f), 'utf8')).toMatch(
        /plugins: \[react\(\), noInlineRefreshPreamble\(\)\]/,
      );
  });
});
