// `npm run build` (and prepack, so `npm pack` and `npm publish` ship it): compiles src/ to
// dist/ from scratch, so no file of a deleted module lingers. Plain JavaScript: it runs
// before anything else is built.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildCliBundle } from './cli-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// The question reader thread starts from src/tables/row-batch-worker.mjs, which lets Node
// strip the types of the .ts sources. Compiled, there is nothing to strip (and Node strips
// nothing under node_modules): the same entry name starts the compiled worker.
writeFileSync(
  new URL('../dist/tables/row-batch-worker.mjs', import.meta.url),
  "// Entry of the question reader thread in the built package (written by scripts/build.mjs).\nimport './row-batch-worker.js';\n",
);

// The web view's page (plain scripts and styles, shipped as they are: nothing is bundled).
cpSync(new URL('../src/web/static', import.meta.url), new URL('../dist/web/static', import.meta.url), { recursive: true });

// The CLI the bin runs: one bundle of it (scripts/cli-bundle.mjs).
await buildCliBundle(root, fileURLToPath(new URL('../dist/cli-bundle', import.meta.url)));
