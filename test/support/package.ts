// Packs the checkout as a user gets it (`npm pack`, which builds dist/ through prepack) and
// installs the tarball the ways a user would: globally into a prefix, or as a dependency of
// a project. For the install test and the start-up bench. npm runs on the project's Node
// (node_modules/.bin first on PATH: npm's own `#!/usr/bin/env node` then finds Node 24).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');
/** The folder holding the project's Node (the `node` devDependency). */
export const PROJECT_NODE_BIN = join(ROOT, 'node_modules', '.bin');
/** The package's name and version, from package.json. */
export const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

/** What a finished child process said. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * An environment for a child: the caller's, without npm's per-script variables (the outer
 * `npm test` sets npm_* for itself; an inner npm must read its own config), PATH as given.
 */
export function cleanEnv(path: string[], extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE_OPTIONS') env[k] = v;
  return { ...env, PATH: path.join(delimiter), FORCE_COLOR: '0', ...extra };
}

/** PATH with the project's Node first. */
export function projectPath(...first: string[]): string[] {
  return [...first, PROJECT_NODE_BIN, ...(process.env.PATH ?? '').split(delimiter)];
}

/** Runs a command to its end. */
export function run(cmd: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', rej);
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

/** Runs npm on the project's Node; throws with its output when it fails. */
export async function npm(args: string[], cwd: string): Promise<Ran> {
  const r = await run('npm', args, { cwd, env: cleanEnv(projectPath()) });
  if (r.code !== 0) throw new Error(`npm ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** `npm pack` of the checkout into a new temporary folder; returns the tarball's path. */
export async function pack(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'resq-pack-'));
  const r = await npm(['pack', '--json', '--pack-destination', dir], ROOT);
  const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as { filename: string }[];
  return join(dir, info!.filename);
}

// Installs use the npm cache first (npm ci filled it); the registry only for what it lacks.
const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

/** `npm install -g <tarball>` into `prefix`; the command is then `<prefix>/bin/resq`. */
export function installGlobal(tarball: string, prefix: string): Promise<Ran> {
  return npm(['install', '-g', '--prefix', prefix, ...INSTALL_FLAGS, tarball], ROOT);
}

/** A new project folder with the tarball (and `more` packages) installed as dependencies. */
export async function installAsDependency(tarball: string, more: string[] = []): Promise<{ dir: string; ran: Ran }> {
  const dir = mkdtempSync(join(tmpdir(), 'resq-project-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'uses-resq', private: true, type: 'module' }, null, 2)}\n`);
  const ran = await npm(['install', ...INSTALL_FLAGS, tarball, ...more], dir);
  return { dir, ran };
}

/** `npm warn` lines of an npm run, without those the machine's own npm config causes. */
export function ownWarnings(r: Ran): string[] {
  return `${r.stdout}\n${r.stderr}`
    .split('\n')
    .filter((l) => /^npm warn/i.test(l))
    .filter((l) => !/Unknown (user|global|builtin) config/.test(l));
}
