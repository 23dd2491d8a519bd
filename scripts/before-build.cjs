// electron-builder hook: make sure the Electron-ABI SQLite module exists before packaging.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async function beforeBuild() {
  const r = spawnSync(process.execPath, [join(__dirname, 'electron-native.mjs')], {
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('Building better-sqlite3 for Electron failed');
  // Dependencies are already installed; tell electron-builder not to install or rebuild them.
  return false;
};
