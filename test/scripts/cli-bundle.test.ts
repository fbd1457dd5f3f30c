// The CLI's bundle (scripts/cli-bundle.mjs) on small projects of the test's own: built on first
// use, reused while nothing changed, built again after an edit, shared by builders that race,
// and old bundles removed. Real esbuild, real files.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkoutBundle, inputsFingerprint } from '../../scripts/cli-bundle.mjs';
import { tempDir } from '../support/cli.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A project with the bundle's two entries; main() says `word` and a helper's name. */
function project(word: string): string {
  const root = tempDir('resq-bundle-');
  made.push(root);
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  mkdirSync(join(root, 'src', 'tables'), { recursive: true });
  writeFileSync(join(root, 'src', 'cli', 'helper.ts'), 'export const helper = (s: string): string => `${s} from helper`;\n');
  writeFileSync(join(root, 'src', 'cli', 'main.ts'), `import { helper } from './helper.js';\nexport function main(): string {\n  return helper(${JSON.stringify(word)});\n}\n`);
  writeFileSync(join(root, 'src', 'tables', 'row-batch-worker.ts'), 'export const worker: number = 1;\n');
  return root;
}

const cacheOf = (root: string) => join(root, 'node_modules', '.cache', 'resq-cli');
const mainOf = async (dir: string) => ((await import(pathToFileURL(join(dir, 'main.mjs')).href)) as { main(): string }).main();

describe('checkoutBundle', () => {
  it('builds on first use, reuses it while nothing changed, and builds afresh after an edit', async () => {
    const root = project('hello');
    const first = await checkoutBundle(root);
    expect(first.built).toBe(true);
    expect(await mainOf(first.dir)).toBe('hello from helper');
    expect(existsSync(join(first.dir, 'row-batch-worker.mjs'))).toBe(true);
    // meta.json says which sources each file holds, named relative to the bundle and the project.
    const meta = JSON.parse(readFileSync(join(first.dir, 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    expect(Object.keys(meta.outputs['main.mjs']!.inputs).sort()).toEqual(['src/cli/helper.ts', 'src/cli/main.ts']);

    expect(await checkoutBundle(root)).toEqual({ dir: first.dir, built: false });

    writeFileSync(join(root, 'src', 'cli', 'helper.ts'), 'export const helper = (s: string): string => `${s} from the edited helper`;\n');
    const edited = await checkoutBundle(root);
    expect(edited.built).toBe(true);
    expect(edited.dir).not.toBe(first.dir);
    expect(await mainOf(edited.dir)).toBe('hello from the edited helper');
  });

  it('a new file under src/ changes the fingerprint; the same tree gives the same one', () => {
    const root = project('x');
    const before = inputsFingerprint(root);
    expect(inputsFingerprint(root)).toBe(before);
    writeFileSync(join(root, 'src', 'new.ts'), 'export {};\n');
    expect(inputsFingerprint(root)).not.toBe(before);
  });

  it('two builders at once: both get the one bundle, and no half-built folder is left', async () => {
    const root = project('raced');
    // Both see no bundle before either awaits: both build, one rename wins.
    const [a, b] = await Promise.all([checkoutBundle(root), checkoutBundle(root)]);
    expect([a.built, b.built]).toEqual([true, true]);
    expect(a.dir).toBe(b.dir);
    expect(readdirSync(cacheOf(root))).toEqual([a.dir.split('/').pop()]);
    expect(await mainOf(a.dir)).toBe('raced from helper');
  });

  it('removes bundles unused for a week when it builds one, and keeps those used since', async () => {
    const root = project('old');
    const cache = cacheOf(root);
    mkdirSync(join(cache, 'stale0000000000'), { recursive: true });
    mkdirSync(join(cache, 'recent000000000'), { recursive: true });
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(join(cache, 'stale0000000000'), weekAgo, weekAgo);
    const { dir } = await checkoutBundle(root);
    expect(readdirSync(cache).sort()).toEqual([dir.split('/').pop(), 'recent000000000'].sort());
  });

  it('a build that fails leaves nothing in the cache and says where', async () => {
    const root = project('broken');
    writeFileSync(join(root, 'src', 'cli', 'helper.ts'), 'export const helper = (s: string =>;\n');
    await expect(checkoutBundle(root)).rejects.toThrow(/src\/cli\/helper\.ts:1/);
    expect(existsSync(cacheOf(root)) ? readdirSync(cacheOf(root)) : []).toEqual([]);
  });
});

