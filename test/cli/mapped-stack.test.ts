// An internal error's stack, said in the TypeScript sources' lines: a real esbuild bundle with
// its map beside it, a real error thrown from it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { mappedStack } from '../../src/cli/mapped-stack.js';
import { tempDir } from '../support/cli.js';

const dir = tempDir('resq-mapped-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mappedStack', () => {
  it('says each position in a bundled file as its source file, line and column; other positions stay', async () => {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'inner.ts'), 'const pad: number = 1;\nexport function boom(): never {\n  throw new Error(`boom ${pad}`);\n}\n');
    writeFileSync(join(dir, 'src', 'outer.ts'), "import { boom } from './inner.js';\n\nexport function run(): void {\n  boom();\n}\n");
    await build({ absWorkingDir: dir, entryPoints: ['src/outer.ts'], outfile: join(dir, 'out', 'outer.mjs'), bundle: true, format: 'esm', platform: 'node', sourcemap: 'linked', logLevel: 'silent' });
    // A plain Node, as the CLI runs: no source maps at start (vitest's own process maps its stacks).
    writeFileSync(join(dir, 'main.mjs'), "import { run } from './out/outer.mjs';\ntry { run(); } catch (err) { process.stdout.write(err.stack); }\n");
    const stack = execFileSync(process.execPath, [join(dir, 'main.mjs')], { encoding: 'utf8' });
    expect(stack).toMatch(/out\/outer\.mjs:\d+:\d+/);
    const mapped = mappedStack(stack);
    expect(mapped).toContain(`${join(dir, 'src', 'inner.ts')}:3:9`);
    expect(mapped).toContain(`${join(dir, 'src', 'outer.ts')}:4:3`);
    expect(mapped).not.toMatch(/outer\.mjs/);
    // The runner's own frame has no map beside it: unchanged.
    expect(mapped).toContain(`${pathToFileURL(join(dir, 'main.mjs')).href}:2:7`);
  });

  it('leaves a stack alone when the map is missing or unreadable', () => {
    writeFileSync(join(dir, 'lone.mjs'), '');
    writeFileSync(join(dir, 'bad.mjs'), '');
    writeFileSync(join(dir, 'bad.mjs.map'), '{ not json');
    const stack = `Error: x\n    at f (${pathToFileURL(join(dir, 'lone.mjs')).href}:1:1)\n    at g (${join(dir, 'bad.mjs')}:2:5)`;
    expect(mappedStack(stack)).toBe(stack);
  });
});
