/**
 * The relay setting is one URL or an ordered list of them (an HA pair, or more), written
 * as one string separated by commas or spaces, so settings files holding a single URL stay
 * valid. The app streams from the first that answers and moves on when one fails.
 */
import { z } from 'zod';
import { credentialUrlProblem } from './url-policy.js';

export function parseRelayUrls(setting: string): string[] {
  return setting
    .split(/[\s,]+/)
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

const isHttpUrl = (u: string) => /^https?:\/\//i.test(u) && URL.canParse(u);

/**
 * The relay setting at a boundary: 1–8 http(s) URLs, each one a URL the relay token may
 * travel to (plain http only to this machine, url-policy.ts).
 */
export const relayUrlSetting = z
  .string()
  .max(4000)
  .refine((s) => {
    const urls = parseRelayUrls(s);
    return urls.length >= 1 && urls.length <= 8 && urls.every(isHttpUrl);
  }, 'one http(s) URL, or several separated by commas (tried in order)')
  .superRefine((s, ctx) => {
    for (const u of parseRelayUrls(s)) {
      const problem = credentialUrlProblem(u, 'relay URL');
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });
