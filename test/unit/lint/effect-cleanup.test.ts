/**
 * `macrobell/effect-returns-cleanup-only` (eslint.config.js): an effect whose arrow returns
 * an expression hands React that value as its cleanup. RuleEditor's
 * `useEffect(() => ref.current?.scrollIntoView?.(…))` returned a Promise in Chromium and
 * blanked the app (issue 42): such effects are refused, block bodies and cleanups are not.
 */
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: resolve(root, 'eslint.config.js') });
});

async function effectErrors(body: string): Promise<string[]> {
  const code = `import { useEffect, useLayoutEffect, useRef } from 'react';\nexport function C() {\n  const ref = useRef<HTMLElement>(null);\n  ${body}\n  return null;\n}\n`;
  const [result] = await eslint.lintText(code, {
    filePath: resolve(root, 'src/renderer/src/components/Probe.tsx'),
  });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'macrobell/effect-returns-cleanup-only')
    .map((m) => m.message);
}

describe('effects return only a cleanup', () => {
  it.each([
    "useEffect(() => ref.current?.scrollIntoView?.({ block: 'nearest' }), []);",
    'useLayoutEffect(() => void ref.current?.focus(), []);',
    "useEffect(() => fetch('/x').then(() => undefined), []);",
  ])('refuses %s', async (body) => {
    expect(await effectErrors(body)).toEqual([
      expect.stringMatching(/returns its expression, which React calls as the cleanup/),
    ]);
  });

  it.each([
    "useEffect(() => {\n    ref.current?.scrollIntoView?.({ block: 'nearest' });\n  }, []);",
    'useEffect(() => {\n    const t = setTimeout(() => undefined, 1);\n    return () => clearTimeout(t);\n  }, []);',
    'useEffect(\n    () => () => {\n      ref.current?.blur();\n    },\n    [],\n  );',
  ])('accepts %s', async (body) => {
    expect(await effectErrors(body)).toEqual([]);
  });
});
