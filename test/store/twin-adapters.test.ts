import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The two store adapters are twins: src/store/sqlite/ and src/store/postgres/ hold the same
// operation files, each pair exporting the same names, so drift shows as one file differing
// from its twin. Besides them each adapter keeps at most five files of its own.

const store = resolve(import.meta.dirname, '../../src/store');
type Adapter = 'sqlite' | 'postgres';

/** Each adapter's own files, outside the twins: its facade, connection, statement cache, waits and write batching. */
const OWN: Record<Adapter, readonly string[]> = {
  // Facade, connection (+ the context every operation takes), statement cache, waits on a busy file, group commit.
  sqlite: ['sqlite-store.ts', 'database.ts', 'statement-cache.ts', 'busy.ts', 'write-group.ts'],
  // Facade, connection (pool, transactions, the LISTEN connection), statement cache (+ how an item is read), pooler target.
  postgres: ['postgres-store.ts', 'pool.ts', 'sql.ts', 'pooler.ts'],
};

/** The adapter's files at the top of its folder (its migrations' own folder aside). */
function filesOf(adapter: Adapter): string[] {
  return readdirSync(join(store, adapter), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => e.name)
    .sort();
}

/** `export type X`, `export interface X` and `export type { X, Y }`: names a module exports that vanish at run time. */
function typeExports(source: string): string[] {
  const names = [...source.matchAll(/^export\s+(?:declare\s+)?(?:type|interface)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!);
  for (const m of source.matchAll(/^export\s+type\s*\{([^}]*)\}/gm))
    for (const part of m[1]!.split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop();
      if (name) names.push(name);
    }
  return names;
}

/** Every name a module exports: its runtime exports (the module imported) and its type exports (read from its source). */
async function exportsOf(path: string): Promise<string[]> {
  const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  return [...new Set([...Object.keys(mod), ...typeExports(readFileSync(path, 'utf8'))])].sort();
}

/** How two modules' exports differ, in words naming the file and the names (empty when they export the same). */
async function exportDifference(file: string, a: { adapter: Adapter; path: string }, b: { adapter: Adapter; path: string }): Promise<string[]> {
  const [fromA, fromB] = await Promise.all([exportsOf(a.path), exportsOf(b.path)]);
  const onlyA = fromA.filter((n) => !fromB.includes(n));
  const onlyB = fromB.filter((n) => !fromA.includes(n));
  if (onlyA.length === 0 && onlyB.length === 0) return [];
  return [`${file}: exported by ${a.adapter} only: ${onlyA.join(', ') || '(none)'}; by ${b.adapter} only: ${onlyB.join(', ') || '(none)'}`];
}

/** Every way the two adapters' operation files are not twins, one line each. */
async function twinProblems(): Promise<string[]> {
  const ops = { sqlite: filesOf('sqlite').filter((f) => !OWN.sqlite.includes(f)), postgres: filesOf('postgres').filter((f) => !OWN.postgres.includes(f)) };
  const problems: string[] = [];
  for (const [adapter, other] of [['sqlite', 'postgres'], ['postgres', 'sqlite']] as const)
    for (const f of ops[adapter]) if (!ops[other].includes(f)) problems.push(`${f}: only in src/store/${adapter}/ (no src/store/${other}/${f}, and not one of ${adapter}'s own files)`);
  for (const f of ops.sqlite.filter((x) => ops.postgres.includes(x)))
    problems.push(...(await exportDifference(f, { adapter: 'sqlite', path: join(store, 'sqlite', f) }, { adapter: 'postgres', path: join(store, 'postgres', f) })));
  return problems;
}

describe('the store adapters are twins by operation', () => {
  it('each adapter keeps at most five files of its own, each of them there', () => {
    for (const adapter of ['sqlite', 'postgres'] as const) {
      expect(OWN[adapter].length).toBeLessThanOrEqual(5);
      expect(OWN[adapter].filter((f) => !existsSync(join(store, adapter, f)))).toEqual([]);
    }
  });

  it('every other file has its twin in the other adapter, exporting the same names (functions, constants, types)', async () => {
    expect(await twinProblems()).toEqual([]);
  });

  it('a pair that exports different names is named with the names that differ, types included', async () => {
    // Two modules that are not twins: the comparison finds each side's own names, runtime and type.
    const said = await exportDifference(
      'busy.ts',
      { adapter: 'sqlite', path: join(store, 'sqlite', 'busy.ts') },
      { adapter: 'postgres', path: join(store, 'postgres', 'pooler.ts') },
    );
    expect(said).toEqual([expect.stringMatching(/^busy\.ts: exported by sqlite only: .*retryBusy.*; by postgres only: .*PgTarget.*parsePgTarget/)]);
    expect(typeExports('export type A = 1;\nexport interface B {}\nexport type { C, D as E } from "x";\n')).toEqual(['A', 'B', 'C', 'E']);
  });
});
