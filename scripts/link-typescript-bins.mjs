// Root `postinstall`. tslab (a devDependency, for notebooks) depends on
// @tslab/typescript-for-tslab, TypeScript 5.0 under another name, which declares the bins
// `tsc` and `tsserver` too. npm links the first claimant in path order and "@tslab/…" sorts
// before "typescript", so without this `npx tsc` and `npm test` would run TypeScript 5.0,
// which rejects this project's tsconfig. Points both bins back at the project's TypeScript;
// does nothing where that is not installed (resq installed as a dependency) or on Windows
// (npm writes .cmd shims there, not links).
import { existsSync, lstatSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const bin = join('node_modules', '.bin');
if (process.platform !== 'win32' && existsSync(join('node_modules', 'typescript', 'package.json'))) {
  for (const name of ['tsc', 'tsserver']) {
    const link = join(bin, name);
    const want = join('..', 'typescript', 'bin', name);
    if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() && readlinkSync(link) === want) continue;
    rmSync(link, { force: true });
    symlinkSync(want, link);
  }
}
