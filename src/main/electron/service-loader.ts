/**
 * The one place the shell reaches the composition root (src/main/service.ts), loaded
 * lazily so the shell's modules stay testable without the whole core.
 */
import type { MacrobellService } from '../service-contract.js';

export interface CreateServiceOptions {
  dataDir: string;
  mode?: 'auto' | 'demo' | 'real';
  /** better-sqlite3 built for Electron's ABI (see native-binding.ts). */
  nativeBinding?: string;
  /** For "Copy diagnostics". */
  appVersion?: string;
}

export type CreateService = (opts: CreateServiceOptions) => Promise<MacrobellService>;

export async function loadService(): Promise<CreateService> {
  const [{ createAppService }, { createModeSwitchingService }] = await Promise.all([
    import('../service.js'),
    import('../mode-switch.js'),
  ]);
  // Saving keys on demo data switches to the live service without a restart.
  return (opts) => createModeSwitchingService(createAppService, opts);
}
