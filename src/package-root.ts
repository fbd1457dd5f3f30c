import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** resq's own package.json as found: its folder and the fields resq reads. */
interface OwnPackage {
  dir: string;
  version: string;
}

let found: OwnPackage | null = null;

/**
 * resq's own package.json, found upward from this module: the same answer from src/ and dist/,
 * and from a bundle of the CLI, whose files sit elsewhere (dist/cli-bundle in the package,
 * node_modules/.cache/resq-cli/… in a checkout: scripts/cli-bundle.mjs). Read once.
 */
function ownPackage(): OwnPackage {
  if (found !== null) return found;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      const json = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (json.name === 'resq-cli') return (found = { dir, version: String(json.version) });
    }
    if (dirname(dir) === dir) throw new Error(`resq's package.json was not found above ${fileURLToPath(import.meta.url)}`);
  }
}

/** The folder holding resq's own package.json (see {@link ownPackage}). */
export function packageRoot(): string {
  return ownPackage().dir;
}

/** resq's version, from its package.json. */
export function packageVersion(): string {
  return ownPackage().version;
}
