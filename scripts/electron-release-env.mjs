// Release workflow helper (.github/workflows/release.yml):
//   --check-tag v1.2.3   fails unless the tag is package.json's version (electron-updater
//                        compares that version, so a mismatched tag would never update)
//   --github-env         decides what this runner signs and notarises from the secrets that
//                        are set, writes only those to $GITHUB_ENV and prints the plan.
// Missing secrets mean "unsigned", never a failure; a half-configured group is a failure.
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const APPLE_ID_GROUP = ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'];
const APPLE_API_GROUP = ['APPLE_API_KEY_BASE64', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'];

const present = (env, name) => typeof env[name] === 'string' && env[name].trim() !== '';

/** All of a group or none of it; a partial group is a configuration mistake worth failing on. */
function group(env, names) {
  const set = names.filter((n) => present(env, n));
  if (set.length > 0 && set.length < names.length)
    throw new Error(
      `Incomplete signing secrets: ${set.join(', ')} set but ${names.filter((n) => !set.includes(n)).join(', ')} missing.`,
    );
  return set.length === names.length;
}

/**
 * What to sign on `platform` given the secrets in `env`: the variables to export (names
 * electron-builder reads) and a line per decision. `writeKey` stores the App Store Connect
 * key (electron-builder wants a file path) and returns its path.
 */
export function signingPlan(env, platform, writeKey = writeTempKey) {
  const vars = {};
  const notes = [];
  const copy = (...names) =>
    names.filter((n) => present(env, n)).forEach((n) => (vars[n] = env[n]));
  if (platform === 'darwin') {
    const appleId = group(env, APPLE_ID_GROUP);
    const apiKey = group(env, APPLE_API_GROUP);
    if (!present(env, 'CSC_LINK')) {
      // Without this electron-builder would look for any identity in the runner's keychain.
      vars.CSC_IDENTITY_AUTO_DISCOVERY = 'false';
      notes.push('macOS: not signed (CSC_LINK is not set); notarisation skipped.');
      return { vars, notes };
    }
    copy('CSC_LINK', 'CSC_KEY_PASSWORD');
    notes.push('macOS: signed with CSC_LINK (Developer ID Application).');
    if (appleId) {
      copy(...APPLE_ID_GROUP);
      notes.push('macOS: notarised with an Apple ID (APPLE_ID, APPLE_TEAM_ID).');
    } else if (apiKey) {
      vars.APPLE_API_KEY = writeKey(Buffer.from(env.APPLE_API_KEY_BASE64, 'base64'));
      copy('APPLE_API_KEY_ID', 'APPLE_API_ISSUER');
      notes.push('macOS: notarised with an App Store Connect API key.');
    } else {
      notes.push(
        'macOS: signed but not notarised (set APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID): Gatekeeper will warn users.',
      );
    }
    return { vars, notes };
  }
  if (platform === 'win32') {
    if (present(env, 'WIN_CSC_LINK')) {
      copy('WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD');
      notes.push('Windows: signed with WIN_CSC_LINK.');
    } else if (present(env, 'CSC_LINK')) {
      copy('CSC_LINK', 'CSC_KEY_PASSWORD');
      notes.push('Windows: signed with CSC_LINK.');
    } else {
      notes.push(
        'Windows: not signed (WIN_CSC_LINK / CSC_LINK not set): SmartScreen will warn users.',
      );
    }
    return { vars, notes };
  }
  notes.push(`${platform}: AppImage and .deb are not code-signed; nothing to configure.`);
  return { vars, notes };
}

function writeTempKey(bytes) {
  const file = join(mkdtempSync(join(tmpdir(), 'macrobell-notary-')), 'AuthKey.p8');
  writeFileSync(file, bytes, { mode: 0o600 });
  return file;
}

/** The lines that append `vars` to a GitHub Actions environment file (multi-line safe). */
export function githubEnvLines(vars) {
  return Object.entries(vars)
    .map(([name, value]) => {
      const delimiter = `EOF_${randomBytes(8).toString('hex')}`;
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

/** Throws unless `tag` is `v` + package.json's version. */
export function checkTag(tag, version) {
  if (tag !== `v${version}`)
    throw new Error(
      `The tag ${tag} does not match package.json's version ${version}: bump the version (npm version ${tag.replace(/^v/, '')}) and tag that commit.`,
    );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    const i = process.argv.indexOf('--check-tag');
    if (i > 0) {
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      checkTag(process.argv[i + 1] ?? '', version);
      process.stdout.write(`Tag matches version ${version}\n`);
    }
    if (process.argv.includes('--github-env')) {
      const { vars, notes } = signingPlan(process.env, process.platform);
      notes.forEach((n) => process.stdout.write(`${n}\n`));
      if (process.env.GITHUB_ENV) appendFileSync(process.env.GITHUB_ENV, githubEnvLines(vars));
      // Names only: the values are secrets.
      process.stdout.write(`Exported: ${Object.keys(vars).join(', ') || 'nothing'}\n`);
    }
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
