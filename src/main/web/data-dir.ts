/** Where the web dashboard keeps its data when `--data` is not given (the XDG base directory spec). */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * `$XDG_DATA_HOME/macrobell`; the spec ignores an empty or relative XDG_DATA_HOME, so then
 * `~/.local/share/macrobell`.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share');
  return join(base, 'macrobell');
}
