/**
 * The relay needs Node.js 22.12 or later (package.json `engines`): its native SQLite module
 * is built for that ABI, and on an older Node (Debian 12's /usr/bin/node is 18 or 20) it
 * failed at start with NODE_MODULE_VERSION, a line an operator cannot act on. Imported first
 * by the CLI, before any module that loads native code, so the check runs before the crash.
 */
const MIN: [number, number] = [22, 12];

/** Why `version` (process.versions.node) cannot run the relay, or null when it can. */
export function nodeTooOld(version: string, execPath: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > MIN[0] || (major === MIN[0] && minor >= MIN[1])) return null;
  return (
    `The relay needs Node.js ${MIN.join('.')} or later; ${execPath} is ${version}. ` +
    'Install Node 22 (docs/relay.md, "Deploy on a small VPS") and run it with that node: the ' +
    "unit's ExecStart runs /usr/bin/env node, the first node on the service's PATH."
  );
}

const refusal = nodeTooOld(process.versions.node, process.execPath);
if (refusal !== null) {
  process.stderr.write(`relay: ${refusal}\n`);
  process.exit(1);
}
