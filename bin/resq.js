#!/usr/bin/env node
// The `resq` command. This file must parse and run on any Node with ES modules, so that on
// an old Node (the machines ship 20) it says what resq needs instead of dying on a newer
// API: it checks the version first and only then loads the rest (launch.js).
// 22.19: the oldest 22 that resq's HTTP client (undici 8) supports.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  // How to get a newer Node with no root: npm's `node` package (a platform binary) for one
  // command through npx, naming this very package by its folder (so it works without a global
  // install, from any folder), or a newer Node under the user's own prefix. A checkout runs
  // its pinned Node 24 through npm's scripts.
  const { existsSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
  const quoted = /^[\w./~-]+$/.test(root) ? root : `'${root.replace(/'/g, `'\\''`)}'`;
  const once = existsSync(`${root}/src/cli/main.ts`)
    ? `  npm run resq -- …                          (in this checkout: its own Node 24, after npm ci)`
    : `  npx -y -p node@24 -p ${quoted} resq …   (this once, on Node 24 from npm)`;
  process.stderr.write(
    [
      `resq needs Node.js 22.19 or newer; this is ${process.version}`,
      'get a newer Node without root, for example:',
      once,
      '  npm install -g node@24 --prefix ~/.local   (then put ~/.local/bin first on PATH)',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
await import('./launch.js');
