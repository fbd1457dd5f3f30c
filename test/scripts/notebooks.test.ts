// `npm run notebooks` (scripts/notebooks.ts) needs Jupyter, which CI installs only after
// `npm test`: what it sets up around a run (scripts/notebooks-setup.ts) is checked here for
// real without it — the kernel.json it writes, its temporary folder's end — and that the
// tarball `npm pack` leaves in the checkout is ignored by git (issue 20.12).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutKernel, inTemporaryFolder, writeKernelSpec } from '../../scripts/notebooks-setup.js';
import { tempDir } from '../support/cli.js';
import { cleanEnv, PACKAGE, projectPath, ROOT, run } from '../support/package.js';

describe('the notebooks kernel', () => {
  it('writes a kernel.json whose display name shows the checkout folder (home as ~) and which starts the wrapper', () => {
    const dir = tempDir('resq-kernel-');
    const kernel = checkoutKernel('/srv/checkouts/resq-b', '/home/ana');
    const path = writeKernelSpec(join(dir, 'spec'), '/srv/checkouts/resq-b/.tmp/tslab-kernel/tslab', kernel);
    expect(path).toBe(join(dir, 'spec', 'kernel.json'));
    const spec = JSON.parse(readFileSync(path, 'utf8')) as { argv: string[]; display_name: string; language: string };
    expect(spec.display_name).toBe('TypeScript (resq, /srv/checkouts/resq-b)');
    expect(spec.argv).toEqual(['/srv/checkouts/resq-b/.tmp/tslab-kernel/tslab', 'kernel', '--config-path', '{connection_file}']);
    expect(spec.language).toBe('typescript');
    expect(checkoutKernel('/home/ana/code/resq', '/home/ana').displayName).toBe('TypeScript (resq, ~/code/resq)');
    // A folder merely starting like home is not under it.
    expect(checkoutKernel('/home/anabel/resq', '/home/ana').displayName).toBe('TypeScript (resq, /home/anabel/resq)');
  });

  it('names each checkout kernel after its path, so two checkouts never share one', () => {
    const a = checkoutKernel('/work/one/resq', '/root');
    const b = checkoutKernel('/work/two/resq', '/root');
    expect(a.name).toMatch(/^resq-tslab-[0-9a-f]{10}$/);
    expect(b.name).toMatch(/^resq-tslab-[0-9a-f]{10}$/);
    expect(a.name).not.toBe(b.name);
    expect(checkoutKernel('/work/one/resq', '/root')).toEqual(a);
    // This checkout's, as the script registers it.
    expect(checkoutKernel(ROOT, '/nonexistent-home').displayName).toBe(`TypeScript (resq, ${ROOT})`);
  });

  it('never shows an empty folder: a checkout at home is ~, and the notebooks name it as a reader sees it', () => {
    expect(checkoutKernel('/home/ana', '/home/ana').displayName).toBe('TypeScript (resq, ~)');
    // What Jupyter renders of each notebook's markdown: an HTML-looking <placeholder> is dropped.
    for (const nb of ['explore.ipynb', 'models.ipynb']) {
      const cells = (JSON.parse(readFileSync(join(ROOT, 'notebooks', nb), 'utf8')) as { cells: { cell_type: string; source: string[] }[] }).cells;
      const shown = cells.filter((c) => c.cell_type === 'markdown').map((c) => c.source.join('').replace(/<[^>\n]*>/g, '')).join('\n');
      const names = [...shown.matchAll(/TypeScript \(resq, ([^)]*)\)/g)].map((m) => m[1]!.trim());
      expect(names.length, nb).toBeGreaterThan(0);
      for (const n of names) expect(n, nb).not.toBe('');
    }
    // Nor the README and docs, where a <placeholder> outside code is eaten the same way.
    for (const md of ['README.md', 'docs/reference.md']) expect(readFileSync(join(ROOT, md), 'utf8'), md).not.toMatch(/TypeScript \(resq, </);
  });
});

describe('the notebooks temporary folder', () => {
  it('is removed after a run, which gets the run result', async () => {
    let seen = '';
    const result = await inTemporaryFolder('resq-nb-test-', async (dir) => {
      seen = dir;
      mkdirSync(join(dir, 'files', 'demo'), { recursive: true });
      writeFileSync(join(dir, 'files', 'demo', 'report.md'), '# report\n');
      writeFileSync(join(dir, 'resq.db'), 'data');
      expect(existsSync(join(dir, 'resq.db'))).toBe(true);
      return 7;
    });
    expect(result).toBe(7);
    expect(seen).not.toBe('');
    expect(existsSync(seen)).toBe(false);
  });

  it('is removed after a failing run, whose error goes on', async () => {
    let seen = '';
    const exitHooks = process.listenerCount('exit');
    const failed = inTemporaryFolder('resq-nb-test-', async (dir) => {
      seen = dir;
      writeFileSync(join(dir, 'resq.db'), 'data');
      throw new Error('the demo batch ended with exit code 4');
    });
    await expect(failed).rejects.toThrow('the demo batch ended with exit code 4');
    expect(existsSync(join(seen, 'resq.db'))).toBe(false);
    expect(existsSync(seen)).toBe(false);
    // Nothing is left to run at exit once the folder is gone.
    expect(process.listenerCount('exit')).toBe(exitHooks);
  });

  it('is removed when the run exits from inside (a refusal calls process.exit)', async () => {
    const program = [
      "import { writeFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      "import { inTemporaryFolder } from './scripts/notebooks-setup.ts';",
      "await inTemporaryFolder('resq-nb-test-', async (dir) => {",
      "  writeFileSync(join(dir, 'resq.db'), 'data');",
      '  console.log(dir);',
      '  process.exit(2);',
      '});',
    ].join('\n');
    const r = await run('node', ['--import', 'tsx', '--input-type=module', '-e', program], { cwd: ROOT, env: cleanEnv(projectPath()) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    const dir = r.stdout.trim();
    expect(dir).toContain('resq-nb-test-');
    expect(existsSync(dir)).toBe(false);
  });
});

describe('npm pack output', () => {
  it('is ignored by git (`git check-ignore` names the rule)', () => {
    for (const tarball of ['resq-cli-0.0.0.tgz', `${PACKAGE.name}-${PACKAGE.version}.tgz`]) {
      // check-ignore exits 1 (and execFileSync throws) for a path that is not ignored.
      const said = execFileSync('git', ['check-ignore', '--verbose', tarball], { cwd: ROOT, encoding: 'utf8' });
      expect(said).toMatch(new RegExp(`^\\.gitignore:\\d+:\\*\\.tgz\\t${tarball.replaceAll('.', '\\.')}$`, 'm'));
    }
  });
});
