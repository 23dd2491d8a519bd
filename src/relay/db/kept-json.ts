/**
 * A JSON file the relay keeps in its data folder (provider-keys.json…), read the one way:
 * absent is null; unreadable says whose permission is missing (data-owner.ts); not JSON,
 * or not the shape the relay wrote, names the file, what is wrong and how to write it again
 * (`hint`) — never the values, which may be secrets.
 */
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { permissionProblem } from './data-owner.js';

export function readKeptJson<S extends z.ZodType>(
  file: string,
  schema: S,
  hint: string,
  opts: { private?: boolean } = {},
): z.infer<S> | null {
  if (!existsSync(file)) return null;
  let text: string;
  try {
    // Someone loosened a private file's mode by hand: tighten it rather than serve it.
    if (opts.private && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw permissionProblem(file, err) ?? err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON: ${hint}`);
  }
  const checked = schema.safeParse(raw);
  if (checked.success) return checked.data;
  // Paths only, never the message: zod's messages may quote the value received.
  const fields = [...new Set(checked.error.issues.map((i) => i.path.join('.') || '(the file)'))];
  throw new Error(`${file} has a wrong or missing ${fields.join(', ')}: ${hint}`);
}
