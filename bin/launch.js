// Starts the CLI once bin/resq.js has checked the Node version. The CLI runs as a bundle
// (scripts/cli-bundle.mjs): an installed package ships one in dist/cli-bundle (built by
// `npm pack`); a checkout, which has src/, builds its own from the sources on first use and
// again after an edit, so an edit still needs no build step.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

  // No source maps at start (Node would parse the bundle's maps, tens of milliseconds): an
  // internal error's report maps its stack itself (src/cli/mapped-stack.ts).
  let bundle = new URL('../dist/cli-bundle/', import.meta.url);
  if (existsSync(new URL('../src/cli/main.ts', import.meta.url))) {
    const { checkoutBundle } = await import('../scripts/cli-bundle.mjs');
    bundle = pathToFileURL(`${(await checkoutBundle(fileURLToPath(new URL('..', import.meta.url)))).dir}/`);
  }
  await (await import(new URL('main.mjs', bundle).href)).main();
}
