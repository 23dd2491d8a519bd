// electron-builder afterPack hook: keytar's native module for the arch that was packed.
// keytar is N-API, so node_modules' build runs under Electron as is — on the arch it was
// built on. An app packed for another arch (x64 on an arm64 Mac, either half of a universal
// app) gets the cross-build the beforePack hook made (scripts/electron-native.mjs); for a
// universal app, @electron/universal then merges the two different builds with lipo.
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { archKeytar, archName, projectRoot } from './electron-native.mjs';

/** Where keytar.node lands in a packed app (asarUnpack keeps it outside the archive). */
export function packedKeytar(appOutDir, platform, productFilename) {
  const resources =
    platform === 'darwin' || platform === 'mas'
      ? join(appOutDir, `${productFilename}.app`, 'Contents', 'Resources')
      : join(appOutDir, 'resources');
  return join(
    resources,
    'app.asar.unpacked',
    'node_modules',
    'keytar',
    'build',
    'Release',
    'keytar.node',
  );
}

/** Put the arch's keytar in the packed app; 'kept' when the host build is already right. */
export function installKeytar({ root = projectRoot, appOutDir, platform, arch, productFilename }) {
  if (arch === 'universal' || arch === process.arch) return 'kept';
  const from = archKeytar(root, platform, arch);
  const to = packedKeytar(appOutDir, platform, productFilename);
  if (!existsSync(from))
    throw new Error(
      `keytar was not built for ${platform}-${arch}: the beforePack hook should have made ${from}`,
    );
  if (!existsSync(to)) throw new Error(`keytar is not where asarUnpack should have put it: ${to}`);
  copyFileSync(from, to);
  return 'replaced';
}

export default async function afterPack(context) {
  installKeytar({
    appOutDir: context.appOutDir,
    platform: context.electronPlatformName,
    arch: archName(context),
    productFilename: context.packager.appInfo.productFilename,
  });
}
