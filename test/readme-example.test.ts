// The README's library example, run against the sources (test/package/install.test.ts runs it
// against the installed package): the same text, with the package name pointed at src/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE, ROOT, cleanEnv, projectPath, run } from './support/package.js';
import { libraryExample } from './support/readme.js';

describe('README library example', () => {
  it('loads a question set, runs it on the simulator and reads the results', async () => {
    const source = libraryExample()
      .replace(`from '${PACKAGE.name}'`, `from '${pathToFileURL(join(ROOT, 'src', 'index.ts')).href}'`)
      .replace(`from '${PACKAGE.name}/sim'`, `from '${pathToFileURL(join(ROOT, 'src', 'sim', 'index.ts')).href}'`);
    expect(source).toContain('src/index.ts');
    expect(source).toContain('src/sim/index.ts');
    // Inside the checkout (.tmp/ is ignored), so `--import tsx` resolves from the project.
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.tmp', 'readme-example-'));
    writeFileSync(join(dir, 'example.ts'), source);
    const r = await run(process.execPath, ['--import', 'tsx', 'example.ts'], { cwd: dir, env: cleanEnv(projectPath()) }).finally(() =>
      rmSync(dir, { recursive: true, force: true }),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/completed: 2/);
    expect(r.stdout).toContain("q2: completed [ 'confirm_scope answered by policy' ]");
  });
});
