// The CLI as one bundle (esbuild): its ~550 modules (resq's own, zod's, undici's, yargs'…) become
// a few dozen files, split where a command is imported lazily. Node then resolves, reads and
// links far fewer modules at each start: a command starts ~0.2–0.3 CPU-s sooner (docs/internals.md).
// The package ships one, built by scripts/build.mjs into dist/cli-bundle; a checkout builds its
// own from src/ on first use and again after any edit (bin/launch.js), into
// node_modules/.cache/resq-cli/<fingerprint of the inputs>. Plain JavaScript: it runs before
// anything is built.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The bundle's entries, named as the code expects them beside its chunks (row-batches.ts starts ./row-batch-worker.mjs). */
const ENTRIES = [
  { in: 'src/cli/main.ts', out: 'main' },
  { in: 'src/tables/row-batch-worker.ts', out: 'row-batch-worker' },
];

/** Packages left to Node: native addons, and pg's optional native binding. */
const EXTERNAL = ['better-sqlite3', 'pg-native'];

/**
 * A bundle not used for this long is removed when another is built (a checkout's old ones, after
 * edits). Each start marks its bundle used; a process started from one more than a week ago, and
 * still running when nobody has started it since, would find its lazily loaded files gone.
 */
const KEEP_UNUSED_MS = 7 * 24 * 3600 * 1000;

/**
 * Writes the CLI's bundle for the project at `root` into `outdir` (made afresh): `main.mjs`,
 * `row-batch-worker.mjs`, their shared chunks, source maps, and `meta.json` (esbuild's
 * metafile: which sources each file holds, files named relative to the bundle's folder).
 */
export async function buildCliBundle(root, outdir) {
  const esbuild = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outExtension: { '.js': '.mjs' },
    external: EXTERNAL,
    // CommonJS dependencies (undici, pg) call require(): an ES module has none of its own.
    banner: { js: "import { createRequire as __resqRequire } from 'node:module'; const require = __resqRequire(import.meta.url);" },
    sourcemap: 'linked',
    // Positions only: an internal error's stack is said in the sources' files and lines
    // (src/cli/mapped-stack.ts), which needs no copy of their text. The library's own maps in
    // dist/ carry the sources; a second copy here would add ~5 MB to the package.
    sourcesContent: false,
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
  });
  // Output paths relative to the bundle's folder (it may be renamed after), inputs to the project.
  const outputs = Object.fromEntries(Object.entries(result.metafile.outputs).map(([k, v]) => [relative(outdir, resolve(root, k)), v]));
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify({ ...result.metafile, outputs }));
}

/** Every file under `dir`, as [path relative to root, size, mtime]. */
function listing(root, dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) listing(root, p, out);
    else if (e.isFile()) {
      const s = statSync(p);
      out.push(`${relative(root, p)}\0${s.size}\0${s.mtimeMs}`);
    }
  }
  return out;
}

/**
 * What a checkout's bundle is built from: every file of src/, this script, and the installed
 * packages (npm rewrites node_modules/.package-lock.json at each install), by size and time.
 * Reading it costs a few milliseconds.
 */
export function inputsFingerprint(root) {
  const lines = listing(root, join(root, 'src'), []);
  for (const f of ['scripts/cli-bundle.mjs', 'node_modules/.package-lock.json']) {
    const p = join(root, f);
    if (existsSync(p)) {
      const s = statSync(p);
      lines.push(`${f}\0${s.size}\0${s.mtimeMs}`);
    }
  }
  return createHash('sha256').update(lines.sort().join('\n')).update(process.version).digest('hex').slice(0, 16);
}

/**
 * The folder of an up-to-date bundle of the checkout at `root`, built first when its inputs
 * changed. Processes starting together may each build one: each writes its own folder and the
 * first rename wins. Marks the bundle used, and removes bundles unused for a week.
 * @returns {{ dir: string, built: boolean }}
 */
export async function checkoutBundle(root, cache = join(root, 'node_modules', '.cache', 'resq-cli')) {
  const dir = join(cache, inputsFingerprint(root));
  if (existsSync(join(dir, 'main.mjs'))) {
    try {
      const now = new Date();
      utimesSync(dir, now, now);
    } catch {
      // A checkout that cannot be written still runs its bundle; only its age goes unrecorded.
    }
    return { dir, built: false };
  }
  mkdirSync(cache, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await buildCliBundle(root, tmp);
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another process's identical bundle got there first.
      if (!['ENOTEMPTY', 'EEXIST'].includes(err.code) || !existsSync(join(dir, 'main.mjs'))) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  prune(cache, dir);
  return { dir, built: true };
}

/** Removes bundles (and builds left by killed processes) unused for a week, never `keep`. */
function prune(cache, keep) {
  const now = Date.now();
  for (const e of readdirSync(cache, { withFileTypes: true })) {
    const p = join(cache, e.name);
    if (p === keep || !e.isDirectory()) continue;
    try {
      if (now - statSync(p).mtimeMs > KEEP_UNUSED_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another process.
    }
  }
}
