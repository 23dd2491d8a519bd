/**
 * Files in the relay's data folder belong to the relay's user. A CLI command that writes
 * there (`keys set`, `users add` on SQLite, `admins add`, `secrets show`, `rotate-secret`,
 * `register`) run as root — `sudo npm run relay -- keys set …` beside the systemd unit's
 * `User=macrobell` — would leave root-owned 0600 files the relay cannot read. Run as root,
 * these commands first become the data folder's owner, so what they write is the relay's.
 * Reading a file the relay's user cannot read says it is a permission problem, and how to
 * fix it — never "not valid JSON".
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The name for an id in /etc/passwd or /etc/group (field 3 is the id), else null. */
function nameIn(file: string, id: number): string | null {
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[2] === String(id) && f[0]) return f[0];
    }
  } catch {
    // unreadable: the id is named by its number
  }
  return null;
}
const userName = (uid: number) => nameIn('/etc/passwd', uid) ?? `uid ${uid}`;
const groupName = (gid: number) => nameIn('/etc/group', gid) ?? String(gid);

/**
 * Run as root: switch this process to the owner of the data folder (or, when it does not
 * exist yet, of the folder it will be made in), when that owner is not root. Returns a
 * note for stderr when it switched.
 */
export function becomeDataFolderOwner(dataDir: string): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  let dir = resolve(dataDir);
  let st = null;
  for (let i = 0; i < 64 && st === null; i++) {
    try {
      st = statSync(dir);
    } catch {
      if (dirname(dir) === dir) return null;
      dir = dirname(dir);
    }
  }
  if (st === null || st.uid === 0) return null;
  process.setgroups?.([st.gid]);
  process.setgid?.(st.gid);
  process.setuid?.(st.uid);
  return `relay: running as ${userName(st.uid)} (the owner of ${dir}), so the relay can read what this command writes there`;
}

/** The error for a data file this process may not read or change (EACCES / EPERM). */
export function permissionProblem(file: string, err: unknown): Error | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code !== 'EACCES' && code !== 'EPERM') return null;
  let owner = 'another user';
  let fix = `chown it to the relay's user`;
  try {
    const st = statSync(file);
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    owner = `${userName(st.uid)} (mode ${mode})`;
    const me = typeof process.getuid === 'function' ? process.getuid() : null;
    if (me !== null) {
      const who = userName(me);
      const group = typeof process.getgid === 'function' ? groupName(process.getgid()) : who;
      fix = `\`sudo chown ${who}:${group} ${file}\``;
    }
  } catch {
    // the folder itself is unreadable: the fix below still applies to it
  }
  const me = typeof process.getuid === 'function' ? userName(process.getuid()) : 'this user';
  return new Error(
    `cannot read ${file}: permission denied — it belongs to ${owner} and the relay runs as ${me}. ` +
      `Fix: ${fix} (commands such as \`relay keys set\` run as root now write as the data folder's owner)`,
  );
}
