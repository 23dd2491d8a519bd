/** The message of anything thrown, for a log line or a plain answer. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
