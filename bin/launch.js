// Starts the CLI once bin/resq.js has checked the Node version. An installed package runs
// the compiled JavaScript in dist/ (built by `npm pack`; no loader at start); a checkout,
// which has src/, runs the TypeScript sources, their types stripped by Node itself
// (src/run-sources.mjs), so an edit needs no build.
import { existsSync, readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { heapFlagsFor } from './heap-flags.js';

// `resq --version` alone answers before the re-exec and before the CLI's modules load: often a
// user's first command, held to 100 ms. (The CLI's own --version reads the same file.)
if (process.argv.length === 3 && process.argv[2] === '--version') {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  await startCli();
}

async function startCli() {
  // V8 heap flags count only when given at start, so the bin re-executes itself with them
  // (execve: the same process, pid and stdio, before anything is loaded; ~30 ms). The command
  // chooses them: one that keeps runs in flight takes a larger young generation.
  // The open-files limit needs no such re-exec (no `ulimit -n` through a shell): Node itself
  // lifts the soft limit to the hard one at start (PlatformInit in node.cc), in this process and
  // again in the re-executed one; src/runner/descriptor-limit.ts reads what it came to.
  if (typeof process.execve === 'function' && !process.execArgv.some((a) => a.startsWith('--max-semi-space-size'))) {
    const flags = heapFlagsFor(process.argv.slice(2));
    process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], process.env);
  }

  // V8's code cache on disk (os.tmpdir()/node-compile-cache, or $NODE_COMPILE_CACHE): a module
  // compiled by an earlier resq process is not parsed and compiled again. Each entry is checked
  // against the module's text, so an edited file is simply compiled afresh: the cache never
  // changes what runs, only how soon. It does not throw: where the folder cannot be made or
  // written Node goes on without it (NODE_DISABLE_COMPILE_CACHE=1 turns it off). The variable
  // passes it on to worker threads (the question reader).
  const cache = enableCompileCache();
  if (cache?.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cache.directory;

  const sources = new URL('../src/cli/main.ts', import.meta.url);
  if (existsSync(sources)) {
    if (!process.features.typescript) {
      process.stderr.write("resq: this checkout runs its TypeScript sources through Node's type stripping, which is turned off here (--no-experimental-strip-types); run it without that flag, or install the package (npm pack)\n");
      process.exit(1);
    }
    await import('../src/run-sources.mjs');
    await (await import(sources.href)).main();
  } else {
    // Stack traces (an internal error's report) then name the TypeScript lines: the maps carry
    // the sources. Costs ~5 ms at start.
    process.setSourceMapsEnabled(true);
    await (await import('../dist/cli/main.js')).main();
  }
}
