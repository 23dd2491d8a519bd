// Validates every GitHub Actions workflow in .github/workflows against the workflow schema
// with action-validator (its wasm core, one file at a time: its CLI takes a single path).
// Part of `npm run lint`; exits non-zero with each problem's file, path and message.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { validateAction, validateWorkflow } from '@action-validator/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Problems in one workflow (or action.yml) text, as readable lines; [] when valid. */
export function workflowProblems(source, kind = 'workflow') {
  const state = kind === 'action' ? validateAction(source) : validateWorkflow(source);
  return state.errors.map((e) => {
    const where = 'path' in e && e.path ? e.path : e.location ? `line ${e.location.line}` : '';
    return [where, e.title, e.detail].filter(Boolean).join(': ');
  });
}

/** The workflow files of a checkout. */
export function workflowFiles(dir = root) {
  const folder = join(dir, '.github', 'workflows');
  return readdirSync(folder)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(folder, f));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  let failed = 0;
  const files = workflowFiles();
  for (const file of files) {
    const problems = workflowProblems(readFileSync(file, 'utf8'));
    for (const p of problems) process.stderr.write(`${relative(root, file)}: ${p}\n`);
    if (problems.length > 0) failed++;
  }
  if (failed > 0) process.exit(1);
  process.stdout.write(`${files.length} workflow file(s) valid\n`);
}
