#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so `npm ci` is the whole install: no build step.
import { enableCompileCache } from 'node:module';
import { HEAP_FLAGS } from './heap-flags.js';

// V8 heap flags count only when given at start, so the bin re-executes itself with them
// (execve: the same process, pid and stdio, before anything is loaded; ~30 ms).
if (typeof process.execve === 'function' && !process.execArgv.some((a) => a.startsWith('--max-semi-space-size'))) {
  process.execve(process.execPath, [process.execPath, ...HEAP_FLAGS, ...process.execArgv, ...process.argv.slice(1)], process.env);
}

// V8's code cache on disk (os.tmpdir()/node-compile-cache, or $NODE_COMPILE_CACHE): a module
// compiled by an earlier resq process is not parsed and compiled again. Each entry is checked
// against the module's text, so an edited file is simply compiled afresh: the cache never
// changes what runs, only how soon. It does not throw: where the folder cannot be made or
// written Node goes on without it (NODE_DISABLE_COMPILE_CACHE=1 turns it off). The variable
// passes it on to worker threads (the question reader).
const cache = enableCompileCache?.();
if (cache?.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cache.directory;
const { register } = await import('tsx/esm/api');
register();
await import('../src/cli/main.ts');
