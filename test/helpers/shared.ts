/** Locates the team's shared folder (seeds, reference documents, recorded data) beside the repository. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Absolute path inside `../shared`, or undefined when the folder is not there. */
export function sharedPath(...parts: string[]): string {
  return join(repoRoot, '..', 'shared', ...parts);
}

/** True when `../shared` exists (CI clones have it beside the repository). */
export const hasShared = existsSync(sharedPath());

/** Absolute path inside the repository. */
export function repoPath(...parts: string[]): string {
  return join(repoRoot, ...parts);
}
