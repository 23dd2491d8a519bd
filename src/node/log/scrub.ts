/** Replace every known secret value (and its URL-encoded form) in a text with a marker. */
export function scrubSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 4) continue; // too short to tell apart from ordinary text
    for (const form of new Set([s, encodeURIComponent(s)]))
      out = out.split(form).join('[redacted]');
  }
  return out;
}
