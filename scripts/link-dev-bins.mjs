// The `dependencies` script: npm runs it in a checkout after `npm ci`, or an `npm install` that
// changed node_modules; never where resq is installed from its package (and, unlike `prepare`
// or `postinstall`, it is no install script, so installing the tarball has nothing to allow).
// Fixes node_modules/.bin for working in the checkout:
// - tslab (a devDependency, for notebooks) depends on @tslab/typescript-for-tslab,
//   TypeScript 5.0 under another name, which declares the bins `tsc` and `tsserver` too. npm
//   links the first claimant in path order and "@tslab/…" sorts before "typescript", so
//   without this `npx tsc` would run TypeScript 5.0, which rejects this project's tsconfig.
//   Points each bin the project's TypeScript declares back at it, and removes one it does
//   not (TypeScript 7 has `tsc` only, no `tsserver`) rather than leave it to tslab's 5.0.
// - `resq`: npm does not link a package's own bin into its node_modules/.bin, and the
//   package is called resq-cli (the registry's `resq` is another tool), so `npx resq` in the
//   checkout would fetch that one. Linked here, `npx resq` runs this checkout's CLI.
// Does nothing on Windows (npm writes .cmd shims there, not links).
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const bin = join('node_modules', '.bin');
const links = [['resq', join('..', '..', 'bin', 'resq.js')]];
const unlinks = [];
const typescript = join('node_modules', 'typescript', 'package.json');
if (existsSync(typescript)) {
  const declared = JSON.parse(readFileSync(typescript, 'utf8')).bin ?? {};
  for (const name of ['tsc', 'tsserver']) {
    if (typeof declared[name] === 'string') links.push([name, join('..', 'typescript', declared[name])]);
    else unlinks.push(name);
  }
}
if (process.platform !== 'win32' && existsSync('node_modules')) {
  mkdirSync(bin, { recursive: true });
  for (const name of unlinks) rmSync(join(bin, name), { force: true });
  for (const [name, want] of links) {
    const link = join(bin, name);
    if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() && readlinkSync(link) === want) continue;
    rmSync(link, { force: true });
    symlinkSync(want, link);
  }
}
