// What `npm run notebooks` (scripts/notebooks.ts) sets up around a run, apart so a test can
// check it without Jupyter: this checkout's kernel (its name and the kernel.json it writes)
// and the temporary folder the run's data lives in.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** A checkout's Jupyter kernel: how Jupyter names it and how its kernel list shows it. */
export interface Kernel {
  name: string;
  displayName: string;
}

/**
 * The kernel of the checkout at `root`: a name of its own (a hash of the checkout's path), so
 * registering it never repoints the user's `tslab` kernel or another checkout's; its display
 * name shows the checkout's folder (home as ~), so two checkouts, or one named resq, are told
 * apart in Jupyter's kernel list.
 */
export function checkoutKernel(root: string, home = homedir()): Kernel {
  const folder = root === home ? '~' : root.startsWith(`${home}/`) ? `~${root.slice(home.length)}` : root || '/';
  return {
    name: `resq-tslab-${createHash('sha256').update(root).digest('hex').slice(0, 10)}`,
    displayName: `TypeScript (resq, ${folder})`,
  };
}

/**
 * Writes `dir/kernel.json`: what `tslab install` writes, but starting `wrapper` and shown
 * under the kernel's display name (tslab's own names are fixed: tslab, jslab). Returns its path.
 */
export function writeKernelSpec(dir: string, wrapper: string, kernel: Kernel): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'kernel.json');
  writeFileSync(path, `${JSON.stringify({ argv: [wrapper, 'kernel', '--config-path', '{connection_file}'], display_name: kernel.displayName, language: 'typescript' }, null, 1)}\n`);
  return path;
}

/**
 * Runs `fn` in a new folder under the system's temporary folder and removes the folder when
 * `fn` ends, however it ends: a result, a throw, or `process.exit` from inside it (the
 * script's refusals exit at once).
 */
export async function inTemporaryFolder<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.on('exit', remove);
  try {
    return await fn(dir);
  } finally {
    process.off('exit', remove);
    remove();
  }
}
