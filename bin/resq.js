#!/usr/bin/env node
// The `resq` command. This file must parse and run on any Node with ES modules, so that on
// an old Node (the machines ship 20) it says what resq needs instead of dying on a newer
// API: it checks the version first and only then loads the rest (launch.js).
// 22.19: the oldest 22 that resq's HTTP client (undici 8) supports.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
// How to get a newer Node with no root: npm's `node` package (a platform binary) for one
// command through npx, or installed under the user's own prefix.
const NEWER = [
  'get a newer Node without root, for example:',
  '  npx -p node@24 resq …                      (this once, on Node 24 from npm)',
  '  npm install -g node@24 --prefix ~/.local   (then put ~/.local/bin first on PATH)',
  '',
].join('\n');
if (major < 22) {
  process.stderr.write(`resq needs Node.js 22 or newer; this is ${process.version}\n${NEWER}`);
  process.exit(1);
}
if (major === 22 && minor < 19) {
  process.stderr.write(`resq needs Node.js 22.19 or newer; this is ${process.version}\n${NEWER}`);
  process.exit(1);
}
await import('./launch.js');
