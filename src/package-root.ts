import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | null = null;

/**
 * The folder holding resq's own package.json, found upward from this module: the same answer
 * from src/ and dist/, and from a bundle of the CLI, whose files sit elsewhere (dist/cli-bundle
 * in the package, node_modules/.cache/resq-cli/… in a checkout: scripts/cli-bundle.mjs).
 */
export function packageRoot(): string {
  if (found !== null) return found;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'resq-cli') return (found = dir);
    if (dirname(dir) === dir) throw new Error(`resq's package.json was not found above ${fileURLToPath(import.meta.url)}`);
  }
}
