import Ajv from 'ajv';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';

const root = process.cwd();

function pngSize(file: string): [number, number] {
  const b = readFileSync(file);
  expect(b.subarray(1, 4).toString()).toBe('PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

/** RGBA pixels of an 8-bit RGBA PNG (what rsvg-convert writes), unfiltered. */
function pngPixels(file: string): { width: number; height: number; px: Buffer } {
  const b = readFileSync(file);
  const [width, height] = pngSize(file);
  expect([b[24], b[25]], `${file}: 8-bit RGBA`).toEqual([8, 6]);
  const idat: Buffer[] = [];
  for (let i = 8; i < b.length;) {
    const len = b.readUInt32BE(i);
    if (b.toString('latin1', i + 4, i + 8) === 'IDAT') idat.push(b.subarray(i + 8, i + 8 + len));
    i += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= 4 ? px[y * stride + x - 4]! : 0;
      const up = y > 0 ? px[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? px[(y - 1) * stride + x - 4]! : 0;
      const paeth = () => {
        const p = a + up - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - up), Math.abs(p - c)];
        return pa <= pb && pa <= pc ? a : pb <= pc ? up : c;
      };
      const pred = [0, a, up, (a + up) >> 1, filter === 4 ? paeth() : 0][filter!]!;
      px[y * stride + x] = (v + pred) & 0xff;
    }
  }
  return { width, height, px };
}

describe('electron-builder.yml', () => {
  interface BuilderConfig {
    npmRebuild: boolean;
    beforePack: string;
    afterPack: string;
    asarUnpack: string[];
    extraResources: { from: string; to: string }[];
    mac: { icon: string; target: unknown[] };
    win: { icon: string };
    linux: { icon: string };
  }
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

  it("is valid against electron-builder's own schema", () => {
    const schema = JSON.parse(
      readFileSync(join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'),
    );
    const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
    const validate = ajv.compile(schema);
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
    expect(config.npmRebuild).toBe(false);
    expect(config.mac.target[0]).toMatchObject({ target: 'dmg', arch: 'universal' });
  });

  it('references icons that exist in the sizes the targets need', () => {
    expect(existsSync(join(root, config.mac.icon))).toBe(true);
    expect(existsSync(join(root, config.win.icon))).toBe(true);
    for (const s of [16, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(pngSize(join(root, config.linux.icon, `${s}x${s}.png`))).toEqual([s, s]);
    }
    const ico = readFileSync(join(root, config.win.icon));
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(5);
    expect(readFileSync(join(root, config.mac.icon)).subarray(0, 4).toString()).toBe('icns');
  });

  it('has tray icons for every state at 1x and 2x, including macOS templates', () => {
    for (const state of ['normal', 'alerting', 'offline']) {
      expect(pngSize(join(root, `assets/tray/tray-${state}.png`))).toEqual([16, 16]);
      expect(pngSize(join(root, `assets/tray/tray-${state}@2x.png`))).toEqual([32, 32]);
      expect(pngSize(join(root, `assets/tray/tray-${state}-22.png`))).toEqual([22, 22]);
    }
    for (const t of ['trayTemplate', 'tray-alertingTemplate', 'tray-offlineTemplate']) {
      expect(pngSize(join(root, `assets/tray/${t}.png`))).toEqual([16, 16]);
      expect(pngSize(join(root, `assets/tray/${t}@2x.png`))).toEqual([32, 32]);
    }
  });

  it('has macOS template images that are black + alpha only, and colour icons that are not', () => {
    for (const t of ['trayTemplate', 'tray-alertingTemplate', 'tray-offlineTemplate']) {
      for (const file of [`${t}.png`, `${t}@2x.png`]) {
        const { px } = pngPixels(join(root, 'assets/tray', file));
        let visible = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (px[i + 3] === 0) continue;
          visible++;
          expect([px[i], px[i + 1], px[i + 2]], `${file} pixel ${i / 4}`).toEqual([0, 0, 0]);
        }
        expect(visible).toBeGreaterThan(20);
      }
    }
    const { px } = pngPixels(join(root, 'assets/tray/tray-alerting@2x.png'));
    let red = 0;
    for (let i = 0; i < px.length; i += 4)
      if (px[i]! > 200 && px[i + 1]! < 100 && px[i + 3]! > 200) red++;
    expect(red, 'the alerting icon carries a red badge').toBeGreaterThan(10);
  });

  it('ships the Electron build of SQLite per arch, built by the beforePack hook', async () => {
    expect(config.extraResources[0]).toEqual({
      from: '.electron-native/${platform}-${arch}/better_sqlite3.node',
      to: 'native/better_sqlite3.node',
    });
    expect(config.asarUnpack).toContain('**/node_modules/keytar/build/Release/*.node');
    const hook = (await import(pathToFileURL(join(root, config.beforePack)).href)) as {
      default: unknown;
      archBinding: (root: string, platform: string, arch: string) => string;
    };
    expect(typeof hook.default).toBe('function');
    // The hook's output path is the one extraResources ships (macros expanded).
    expect(hook.archBinding(root, 'darwin', 'arm64')).toBe(
      join(
        root,
        config.extraResources[0]!.from.replace('${platform}', 'darwin').replace('${arch}', 'arm64'),
      ),
    );
  });
});

describe('scripts/electron-native.mjs', () => {
  it('skips the build when this Electron version is already built, and refreshes the dev copy', async () => {
    const mod = (await import(pathToFileURL(join(root, 'scripts/electron-native.mjs')).href)) as {
      buildElectronSqlite: (o: object) => string;
      archBinding: (root: string, platform: string, arch: string) => string;
      devBinding: (root: string) => string;
      electronVersion: () => string;
    };
    const dir = mkdtempSync(join(tmpdir(), 'macrobell-native-'));
    try {
      const built = mod.archBinding(dir, process.platform, process.arch);
      mkdirSync(join(built, '..'), { recursive: true });
      writeFileSync(built, 'addon');
      const stamp = {
        electron: mod.electronVersion(),
        platform: process.platform,
        arch: process.arch,
      };
      writeFileSync(`${built}.stamp.json`, JSON.stringify(stamp));
      const lines: string[] = [];
      expect(mod.buildElectronSqlite({ root: dir, log: (l: string) => lines.push(l) })).toBe(
        'up-to-date',
      );
      expect(lines).toEqual([]);
      expect(readFileSync(mod.devBinding(dir), 'utf8')).toBe('addon');
      expect(() => mod.buildElectronSqlite({ root: dir, platform: 'plan9' })).toThrow(
        /on its own OS/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scripts/electron-after-pack.mjs', () => {
  interface AfterPack {
    installKeytar: (o: object) => string;
    packedKeytar: (appOutDir: string, platform: string, productFilename: string) => string;
  }
  const foreign = process.arch === 'arm64' ? 'x64' : 'arm64';
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as {
    beforePack: string;
    afterPack: string;
  };

  it('swaps in the cross-built keytar when another arch was packed, and keeps the host build otherwise', async () => {
    const hook = (await import(pathToFileURL(join(root, config.afterPack)).href)) as AfterPack;
    const native = (await import(pathToFileURL(join(root, config.beforePack)).href)) as {
      archKeytar: (root: string, platform: string, arch: string) => string;
    };
    const dir = mkdtempSync(join(tmpdir(), 'macrobell-afterpack-'));
    try {
      for (const platform of ['darwin', 'linux', 'win32']) {
        const appOutDir = join(dir, platform, 'out');
        const packed = hook.packedKeytar(appOutDir, platform, 'Macrobell');
        expect(packed).toContain(join('app.asar.unpacked', 'node_modules', 'keytar'));
        if (platform === 'darwin') expect(packed).toContain(join('Macrobell.app', 'Contents'));
        mkdirSync(join(packed, '..'), { recursive: true });
        writeFileSync(packed, 'host build');
        const built = native.archKeytar(dir, platform, foreign);
        mkdirSync(join(built, '..'), { recursive: true });
        writeFileSync(built, `${foreign} build`);
        const opts = { root: dir, appOutDir, platform, productFilename: 'Macrobell' };
        expect(hook.installKeytar({ ...opts, arch: process.arch })).toBe('kept');
        expect(hook.installKeytar({ ...opts, arch: 'universal' })).toBe('kept');
        expect(readFileSync(packed, 'utf8')).toBe('host build');
        expect(hook.installKeytar({ ...opts, arch: foreign })).toBe('replaced');
        expect(readFileSync(packed, 'utf8')).toBe(`${foreign} build`);
      }
      expect(() =>
        hook.installKeytar({
          root: dir,
          appOutDir: join(dir, 'none'),
          platform: 'linux',
          arch: 'ia32',
          productFilename: 'Macrobell',
        }),
      ).toThrow(/not built for linux-ia32/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
