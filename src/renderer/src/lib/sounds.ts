/**
 * The alert sounds (synthesised by scripts/generate-sounds.mjs into assets/sounds/) and which
 * one a notification plays. The files are bundled by Vite into the renderer's own assets, so
 * they load from 'self' under the strict CSP in both hosts.
 */
import type { NativeNotification, SoundLevel } from '../../../shared/domain.js';

export const SOUND_URLS: Record<SoundLevel, string> = {
  HIGH: new URL('../../../../assets/sounds/high.wav', import.meta.url).href,
  MEDIUM: new URL('../../../../assets/sounds/medium.wav', import.meta.url).href,
  LOW: new URL('../../../../assets/sounds/low.wav', import.meta.url).href,
};

/** The level whose sound a notification plays: its impact; news (no impact) plays medium. */
export function soundLevelOf(n: Pick<NativeNotification, 'volatility'>): SoundLevel {
  switch (n.volatility) {
    case 'HIGH':
      return 'HIGH';
    case 'LOW':
    case 'NONE':
      return 'LOW';
    default:
      return 'MEDIUM';
  }
}

/** The sound to play, or null: quiet hours make it silent, and each level can be off. */
export function soundFor(
  n: Pick<NativeNotification, 'volatility' | 'silent'>,
  enabled: Record<SoundLevel, boolean>,
): SoundLevel | null {
  if (n.silent) return null;
  const level = soundLevelOf(n);
  return enabled[level] ? level : null;
}
