// scripts/test.mjs (`npm test`): the typecheck and vitest side by side. Run here on a small
// project of its own (the script copied into a temporary folder, this checkout's node_modules
// linked in), so a type error or a failing test can be made on purpose.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../support/cli.js';

let dir = '';

function runScript(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    // Plain text, and nothing of this vitest run's own variables for the one inside.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|FORCE_COLOR$|NODE_OPTIONS$)/.test(k)));
    const child = spawn(process.execPath, [join(dir, 'scripts', 'test.mjs'), ...args], { cwd: dir, env: { ...env, NO_COLOR: '1', CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Writes the project's one source file and its two tests. */
function project(source: string, second: string): void {
  writeFileSync(join(dir, 'src.ts'), source);
  writeFileSync(join(dir, 'a.test.ts'), "import { expect, it } from 'vitest';\nimport { n } from './src.ts';\nit('adds', () => expect(n + 1).toBe(2));\n");
  writeFileSync(join(dir, 'b.test.ts'), `import { expect, it } from 'vitest';\nit('second', () => expect(${second}).toBe(true));\n`);
}

beforeAll(() => {
  dir = tempDir('resq-test-script-');
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(join(ROOT, 'scripts', 'test.mjs'), join(dir, 'scripts', 'test.mjs'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2023', module: 'NodeNext', strict: true, noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true, types: [] }, include: ['*.ts'] }),
  );
  writeFileSync(join(dir, 'vitest.config.ts'), "export default { test: { include: ['*.test.ts'] } };\n");
});

describe('npm test (scripts/test.mjs)', () => {
  it('passes when both the typecheck and the tests pass, and says the typecheck found nothing after the tests\' summary', async () => {
    project('export const n: number = 1;\n', 'true');
    const r = await runScript([]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Tests\s+2 passed/);
    expect(r.out.indexOf('typecheck (tsc --noEmit): no errors')).toBeGreaterThan(r.out.search(/Tests\s+2 passed/));
  }, 60_000);

  it('fails on a type error though every test passes, printing the error whole after the tests', async () => {
    project("export const n: number = 1;\nexport const wrong: number = 'one';\n", 'true');
    const r = await runScript([]);
    expect(r.out).toMatch(/Tests\s+2 passed/);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('typecheck (tsc --noEmit) failed:');
    expect(r.out).toMatch(/src\.ts\(2,14\): error TS2322/);
    expect(r.out.indexOf('typecheck (tsc --noEmit) failed:')).toBeGreaterThan(r.out.search(/Tests\s+2 passed/));
  }, 60_000);

  it('fails on a failing test though the types are right', async () => {
    project('export const n: number = 1;\n', 'false');
    const r = await runScript([]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Tests\s+1 failed \| 1 passed/);
    expect(r.out).toContain('typecheck (tsc --noEmit): no errors');
  }, 60_000);

  it('gives its arguments to vitest: one file named runs that file alone', async () => {
    project('export const n: number = 1;\n', 'false');
    const r = await runScript(['a.test.ts']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(r.out).not.toContain('b.test.ts');
  }, 60_000);
});
