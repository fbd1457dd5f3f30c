// The package as a user gets it: `npm pack` (dist/ built by prepack), installed globally into
// a temporary prefix and as a dependency of a new project, run from folders that have nothing
// of the checkout. Packed and installed once for the whole file.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanEnv,
  installAsDependency,
  installGlobal,
  ownWarnings,
  pack,
  PACKAGE,
  projectPath,
  PROJECT_NODE_BIN,
  ROOT,
  run,
  type Ran,
} from '../support/package.js';
import { commandsOf, libraryExample, readmeBlocks } from '../support/readme.js';

let tarball = '';
let prefix = '';
let globalInstall: Ran;
let project = '';

beforeAll(async () => {
  tarball = await pack();
  prefix = mkdtempSync(join(tmpdir(), 'resq-prefix-'));
  // @types/node: what any TypeScript project on Node has; the example's types need it.
  const [g, d] = await Promise.all([installGlobal(tarball, prefix), installAsDependency(tarball, ['@types/node@24'])]);
  globalInstall = g;
  project = d.dir;
}, 180_000);

const temps: string[] = [];
/** A new temporary folder, removed after the file's tests. */
function temp(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), name));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  // Only what was made here: a step that failed left its variable empty.
  for (const d of [...temps, prefix, project, tarball && dirname(tarball)]) if (d && d.startsWith(tmpdir())) rmSync(d, { recursive: true, force: true });
});

/** Runs the globally installed `resq` from `cwd` with `nodeDir` first on PATH. */
function resq(args: string[], cwd: string, nodeDir = PROJECT_NODE_BIN): Promise<Ran> {
  return run(join(prefix, 'bin', 'resq'), args, { cwd, env: cleanEnv([join(prefix, 'bin'), nodeDir, ...(process.env.PATH ?? '').split(delimiter)]) });
}

describe('npm pack', () => {
  it('packs the compiled JavaScript with its maps and declarations, the bin, and nothing of the sources or tests', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toContain('package/dist/cli/main.js');
    expect(files).toContain('package/dist/cli/main.js.map');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/dist/tables/row-batch-worker.mjs');
    // The CLI the bin runs: its bundle, with the question reader's entry beside its chunks.
    for (const f of ['main.mjs', 'main.mjs.map', 'row-batch-worker.mjs', 'meta.json']) expect(files).toContain(`package/dist/cli-bundle/${f}`);
    expect(files).toContain('package/bin/resq.js');
    const outside = files.filter((f) => !/^package\/(dist\/|bin\/(resq|launch|heap-flags)\.js$|package\.json$|README\.md$)/.test(f));
    expect(outside).toEqual([]);
  });

  it("ships the web view's page: every file of src/web/static under dist/web/static", () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    const page = readdirSync(join(ROOT, 'src', 'web', 'static'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `package/dist/web/static/${relative(join(ROOT, 'src', 'web', 'static'), join(e.parentPath, e.name)).split(sep).join('/')}`);
    for (const f of ['index.html', 'app.js', 'style.css', 'js/confirm.js']) expect(page).toContain(`package/dist/web/static/${f}`);
    expect(files.filter((f) => f.startsWith('package/dist/web/static/')).sort()).toEqual(page.sort());
  });
});

describe('npm install -g <tarball>', () => {
  it('installs with no warning of its own', () => {
    expect(ownWarnings(globalInstall)).toEqual([]);
    // No TypeScript loader comes with it: the installed CLI runs compiled code.
    expect(existsSync(join(prefix, 'lib', 'node_modules', PACKAGE.name, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'tsx'))).toBe(false);
  });

  it("the README's install lines work as written, in the folder that holds the tarball: install, npx (on this Node and on Node 24), upgrade, uninstall", async () => {
    const block = readmeBlocks().find((x) => x.section === 'Install' && x.lang === 'sh')!;
    const lines = commandsOf(block.body);
    expect(lines.map((l) => l.command.split(' ').slice(0, 3).join(' '))).toEqual(['npm install -g', 'npx -y --package', 'npx -y -p', 'npm install -g', 'npm uninstall -g']);
    // The lines name the tarball `npm pack` writes (the upgrade line a newer one): copied under
    // those names, the tarball runs as the README says.
    expect(lines.slice(0, 3).map((l) => /\.\/(resq-cli-[\w.]+\.tgz)/.exec(l.command)?.[1])).toEqual(Array(3).fill(basename(tarball)));
    const cwd = temp('resq-readme-install-');
    const own = temp('resq-readme-prefix-');
    for (const name of lines.flatMap((l) => [...l.command.matchAll(/\.\/(resq-cli-[\d.]+\.tgz)/g)].map((m) => m[1]!))) copyFileSync(tarball, join(cwd, name));
    writeFileSync(join(cwd, 'questions.csv'), 'question\nWhat is 2 + 2?\n');
    // `-g` into a prefix of the test's own; npm's cache first (npm ci filled it), the registry only for what it lacks.
    const env = cleanEnv([join(own, 'bin'), ...projectPath()], { npm_config_prefix: own, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });
    for (const { command } of lines) {
      const r = await run('sh', ['-c', command], { cwd, env });
      expect(r.code, `${command}\n${r.stdout}\n${r.stderr}`).toBe(0);
      if (command.startsWith('npm install -g')) expect((await run(join(own, 'bin', 'resq'), ['--version'], { cwd, env })).stdout.trim()).toBe(PACKAGE.version);
      if (command.includes(' resq run ')) expect(r.stdout).toContain('1 item — 1 completed');
    }
    // Uninstalled by name: the command is gone.
    expect(existsSync(join(own, 'bin', 'resq'))).toBe(false);
  }, 240_000);

  it('prints its version from any folder', async () => {
    const r = await resq(['--version'], temp('resq-anywhere-'));
    expect(r).toMatchObject({ code: 0, stdout: `${PACKAGE.version}\n`, stderr: '' });
  });

  it('runs a question set on the simulator, keeping its database and files in the folder it runs in', async () => {
    const cwd = temp('resq-anywhere-');
    writeFileSync(join(cwd, 'q.csv'), 'id,question\na,What is 2 + 2?\nb,Write it down @files=md\n');
    const r = await resq(['run', 'q.csv', '--sim'], cwd);
    // Progress goes to stderr; no warning from Node or a loader.
    expect(r.stderr).not.toMatch(/warn|error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 completed');
    expect(existsSync(join(cwd, 'resq.db'))).toBe(true);
    const [folder] = readdirSync(join(cwd, 'out'));
    expect(folder).toMatch(/^q-[0-9a-f]{8}$/);
    expect(readdirSync(join(cwd, 'out', folder!, 'b'))).toEqual(['report.md']);
    const status = await resq(['status', 'q', '--json'], cwd);
    expect(status.code).toBe(0);
  });
});

describe('resq serve from the installed package', () => {
  it('answers GET / with the page, and serves the scripts and styles the page loads', async () => {
    const cwd = temp('resq-serve-');
    writeFileSync(join(cwd, 'q.csv'), 'id,question\na,What is 2 + 2?\n');
    expect((await resq(['run', 'q.csv', '--sim', '--dry-run'], cwd)).code).toBe(0);
    const child = spawn(join(prefix, 'bin', 'resq'), ['serve', '--db', 'resq.db', '--port', '0'], {
      cwd,
      env: cleanEnv([join(prefix, 'bin'), PROJECT_NODE_BIN, ...(process.env.PATH ?? '').split(delimiter)]),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const lines = out.split('\n');
          if (lines.length > 2) resolve(`${lines[0]}\n${lines[1]}`);
        });
        child.on('exit', (code) => reject(new Error(`resq serve exited ${code} before serving`)));
      });
      const m = /^serving (http:\/\/127\.0\.0\.1:\d+)\/\?code=\S+\ntoken: (\S+) /.exec(line);
      expect(m, line).not.toBeNull();
      const [, origin, token] = m!;
      const auth = { headers: { Authorization: `Bearer ${token}` } };
      const index = await fetch(`${origin}/`, auth);
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await index.text();
      expect(html).toBe(readFileSync(join(ROOT, 'src', 'web', 'static', 'index.html'), 'utf8'));
      const loaded = [...html.matchAll(/(?:src|href)="(\/static\/[^"]+)"/g)].map((x) => x[1]!);
      expect(loaded.sort()).toEqual(['/static/app.js', '/static/style.css']);
      for (const path of [...loaded, '/static/js/confirm.js']) {
        const r = await fetch(`${origin}${path}`, auth);
        expect(r.status, path).toBe(200);
        expect(await r.text(), path).toBe(readFileSync(join(ROOT, 'src', 'web', path), 'utf8'));
      }
      expect(((await (await fetch(`${origin}/api/batches`, auth)).json()) as { batches: { name: string }[] }).batches.map((b) => b.name)).toEqual(['q']);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('close', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, 60_000);
});

describe('the installed bin on an old Node', () => {
  // The machine's own Node (20 here), wherever it is on PATH: the first one older than 22.
  const old = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d && !d.startsWith(ROOT))
    .map((d) => join(d, 'node'))
    .find((n) => {
      if (!existsSync(n)) return false;
      const v = execFileSync(n, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      return Number(v.split('.')[0]) < 22;
    });

  it.skipIf(!old)('says which Node it needs and how to get one without root, and exits 1, whatever the command', async () => {
    const version = execFileSync(old!, ['--version'], { encoding: 'utf8' }).trim();
    for (const args of [['--version'], ['run', 'q.csv', '--sim'], []]) {
      const r = await resq(args, temp('resq-old-node-'), dirname(old!));
      expect(r).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr.split('\n')[0]).toBe(`resq needs Node.js 22.19 or newer; this is ${version}`);
      expect(r.stderr).toContain(`npx -y -p node@24 -p ${join(prefix, 'lib', 'node_modules', PACKAGE.name)} resq …`);
      expect(r.stderr).toContain('npm install -g node@24 --prefix ~/.local');
    }
  });

  it.skipIf(!old)('the way it gives works as printed, from any folder, without the global install on PATH', async () => {
    const cwd = temp('resq-old-node-');
    const hint = (await resq(['--version'], cwd, dirname(old!))).stderr.split('\n').find((l) => l.trim().startsWith('npx '))!;
    const args = hint.trim().split(/\s+/).slice(1, hint.trim().split(/\s+/).indexOf('resq') + 1);
    // npm on the old Node, as the user has it, and no resq on PATH; node@24 from npm's cache (npm ci filled it) or the registry.
    const env = cleanEnv([dirname(old!), ...(process.env.PATH ?? '').split(delimiter).filter((d) => !d.startsWith(ROOT))]);
    const r = await run('npx', ['--prefer-offline', ...args, '--version'], { cwd, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(PACKAGE.version);
  }, 120_000);
});

describe(`npm install <tarball> (a dependency)`, () => {
  it(`gives \`import … from '${PACKAGE.name}'\` with its types, and the README's library example runs`, async () => {
    const example = libraryExample();
    expect(example).toContain(`from '${PACKAGE.name}'`);
    expect(example).toContain(`from '${PACKAGE.name}/sim'`);
    writeFileSync(join(project, 'example.ts'), example);
    // The declarations are real, not `any`: a wrong call is an error. The simulator is a subpath
    // of its own, not part of the library's entry.
    writeFileSync(
      join(project, 'wrong.ts'),
      `import { startSim } from '${PACKAGE.name}/sim';\nimport * as lib from '${PACKAGE.name}';\n// @ts-expect-error a port is an option, not the argument\nawait startSim(8080);\n// @ts-expect-error the library's entry does not carry the simulator\nlib.startSim;\n`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2023', module: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] }, include: ['*.ts'] }),
    );
    const env = cleanEnv(projectPath());
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: project, env });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
    // Node strips the example's types itself: nothing of the checkout is used.
    const r = await run(process.execPath, ['example.ts'], { cwd: project, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/completed: 2/);
    expect(r.stdout).toContain("q2: completed [ 'confirm_scope answered by policy' ]");
    // A type check of the installed declarations and a batch: minutes on a busy shared machine.
  }, 180_000);
});
