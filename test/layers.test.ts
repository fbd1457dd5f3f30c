import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as flightRules from '../src/store/common/flights.js';

// The whiteboard's never-edges (DESIGN.md, layout and dependency direction), read from the sources.
const root = resolve(import.meta.dirname, '..');

interface Edge {
  /** Importing file, relative to the repo (src/…). */
  from: string;
  /** Imported module: a repo path (src/….ts) for a relative import, else the package name. */
  to: string;
  /** `import type` / `export type`: erased, no runtime load. */
  typeOnly: boolean;
  /** `import('…')`: loaded when the code runs, not with the importing module. */
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(?:ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function edgesOf(file: string): Edge[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const spec = m[3] ?? m[4]!;
    const to = spec.startsWith('.') ? relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, '.ts') : spec;
    return { from: file, to, typeOnly: m[2] !== undefined, dynamic: m[4] !== undefined };
  });
}

const edges = sourceFiles('src').flatMap(edgesOf);
const under = (prefix: string) => (path: string) => path.startsWith(prefix);

/** Every source file loaded with `start` (static runtime imports, followed through). */
function loadedWith(start: string): Set<string> {
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length > 0) {
    const file = todo.pop()!;
    for (const e of edges) {
      if (e.from !== file || e.typeOnly || e.dynamic || !e.to.startsWith('src/') || seen.has(e.to)) continue;
      seen.add(e.to);
      todo.push(e.to);
    }
  }
  return seen;
}

/** The first import circle of a graph as a path (its start repeated at the end), or [] when there is none. */
function cycleIn(next: ReadonlyMap<string, readonly string[]>): string[] {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const walk = (file: string): string[] => {
    if (onPath.has(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return [];
    path.push(file);
    onPath.add(file);
    for (const to of next.get(file) ?? []) {
      const found = walk(to);
      if (found.length > 0) return found;
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
    return [];
  };
  for (const file of [...next.keys()].sort()) {
    const found = walk(file);
    if (found.length > 0) return found;
  }
  return [];
}

describe('the whiteboard', () => {
  it('sees the imports it checks', () => {
    expect(edges.some((e) => e.from === 'src/index.ts' && e.to === 'src/runner/index.ts')).toBe(true);
  });

  it('keeps policy pure: it imports nothing but zod and itself', () => {
    const out = edges.filter((e) => under('src/policy/')(e.from) && !under('src/policy/')(e.to) && e.to !== 'zod');
    expect(out).toEqual([]);
  });

  it('keeps the simulator apart: it imports nothing of src outside src/sim (type-only imports included)', () => {
    const out = edges.filter((e) => under('src/sim/')(e.from) && e.to.startsWith('src/') && !under('src/sim/')(e.to));
    expect(edges.filter((e) => under('src/sim/')(e.from) && under('src/sim/')(e.to)).length).toBeGreaterThan(0);
    expect(out).toEqual([]);
  });

  it('imports nothing upward: runner, models, files, notebook, store and api never import cli or web', () => {
    const lower = ['src/runner/', 'src/models/', 'src/files/', 'src/notebook/', 'src/store/', 'src/api/'];
    const up = edges.filter((e) => lower.some((p) => under(p)(e.from)) && (under('src/cli/')(e.to) || under('src/web/')(e.to)));
    expect(up).toEqual([]);
    // The front ends do import them (the check looks at real edges).
    expect(edges.some((e) => under('src/cli/')(e.from) && under('src/runner/')(e.to))).toBe(true);
  });

  it('keeps policy and tables pure: of src they import only config/, errors, clock, the shared text helpers and the leaf modules listed', () => {
    // Leaf modules (no imports of src themselves) they may use besides: the hook that lets
    // Node run the sources in a checkout (the question reader thread's entry registers it).
    const leaves: string[] = ['src/run-sources.mjs'];
    const allowed = (to: string) => under('src/config/')(to) || under('src/text/')(to) || to === 'src/errors.ts' || to === 'src/clock.ts' || leaves.includes(to);
    for (const part of ['src/policy/', 'src/tables/']) {
      const out = edges.filter((e) => under(part)(e.from) && e.to.startsWith('src/') && !under(part)(e.to) && !allowed(e.to));
      expect(out).toEqual([]);
    }
    for (const leaf of leaves) expect(edges.filter((e) => e.from === leaf && e.to.startsWith('src/'))).toEqual([]);
  });

  it('keeps pipeline pure: it imports only config/, policy/, tables/, base-url and errors of src', () => {
    // Pipeline files are YAML/JSON: pipeline reads them through the Config part (src/config/,
    // which issue 21.4 made the one reader of YAML/JSON files), hence config/ is allowed.
    const allowed = (to: string) =>
      ['src/config/', 'src/policy/', 'src/tables/'].some((p) => under(p)(to)) || to === 'src/base-url.ts' || to === 'src/errors.ts';
    const out = edges.filter((e) => under('src/pipeline/')(e.from) && e.to.startsWith('src/') && !under('src/pipeline/')(e.to) && !allowed(e.to));
    expect(edges.some((e) => under('src/pipeline/')(e.from) && under('src/config/')(e.to))).toBe(true);
    expect(out).toEqual([]);
  });

  it('reads YAML/JSON files only in the config part', () => {
    const yaml = edges.filter((e) => e.to === 'yaml' && !under('src/config/')(e.from));
    expect(yaml).toEqual([]);
  });

  it('lets the notebook helpers read only the store and the read model (and the shared errors, clock, byte formatter, cost reader, text helpers and charts)', () => {
    // src/policy/cost.ts: the one reader of a plan's cost, a leaf (it imports nothing).
    const shared = new Set(['src/errors.ts', 'src/format-bytes.ts', 'src/clock.ts', 'src/policy/cost.ts']);
    const leaves = ['src/notebook/', 'src/store/', 'src/read/', 'src/text/', 'src/charts/'];
    const out = edges.filter((e) => under('src/notebook/')(e.from) && e.to.startsWith('src/') && !leaves.some((l) => under(l)(e.to)) && !shared.has(e.to));
    expect(out).toEqual([]);
  });

  it('keeps the shared leaves leaves: text/ imports nothing of src, charts/ only text/', () => {
    const text = edges.filter((e) => under('src/text/')(e.from) && e.to.startsWith('src/') && !under('src/text/')(e.to));
    const charts = edges.filter((e) => under('src/charts/')(e.from) && e.to.startsWith('src/') && !under('src/charts/')(e.to) && !under('src/text/')(e.to));
    expect([...text, ...charts]).toEqual([]);
  });

  it('keeps the chart code out of notebook/: the page draws its charts from charts/, not from the notebook helpers', () => {
    expect(edges.filter((e) => under('src/web/')(e.from) && e.to === 'src/notebook/svg-chart.ts')).toEqual([]);
    expect(edges.filter((e) => under('src/web/')(e.from) && under('src/charts/')(e.to)).length).toBeGreaterThan(0);
  });

  it('keeps the read model over the store: it imports the store, errors, the clock, the cost reader, the local process check, the verdict types and pass-rate maths, and the shared text helpers (the one command-hint builder), nothing that renders', () => {
    // The shared text leaves, for the command-hint builder: `next` is a pasteable command every window shows as it is.
    const shared = new Set(['src/errors.ts', 'src/clock.ts', 'src/local-process.ts', 'src/policy/cost.ts', 'src/score/types.ts', 'src/score/stats.ts']);
    // The verdict types and the pass-rate maths are leaves: the read model takes no scorer with them.
    expect(edges.filter((e) => (e.from === 'src/score/types.ts' || e.from === 'src/score/stats.ts') && e.to.startsWith('src/'))).toEqual([]);
    const out = edges.filter((e) => under('src/read/')(e.from) && e.to.startsWith('src/') && !under('src/read/')(e.to) && !under('src/store/')(e.to) && !under('src/text/')(e.to) && !shared.has(e.to));
    expect(out).toEqual([]);
  });

  it('keeps the read model under the runner: read/ imports nothing of runner/, and the local process check both use is a leaf', () => {
    expect(edges.filter((e) => under('src/read/')(e.from) && under('src/runner/')(e.to))).toEqual([]);
    expect(edges.filter((e) => e.from === 'src/local-process.ts' && e.to.startsWith('src/'))).toEqual([]);
    // Both sides do use it (the check looks at real edges).
    expect(edges.some((e) => under('src/read/')(e.from) && e.to === 'src/local-process.ts')).toBe(true);
    expect(edges.some((e) => under('src/runner/')(e.from) && e.to === 'src/local-process.ts')).toBe(true);
    // So the notebook helpers, which read through the read model, load nothing of the runner.
    const notebook = loadedWith('src/notebook/index.ts');
    expect(notebook.has('src/read/batch-status.ts')).toBe(true);
    expect([...notebook].filter(under('src/runner/'))).toEqual([]);
  });

  it('keeps flag wording in the CLI: notify/ parses no command-line flags (no `--flag:` message, no flag shapes)', () => {
    const notify = sourceFiles('src').filter(under('src/notify/'));
    expect(notify.length).toBeGreaterThan(0);
    const flagWords = notify.filter((f) => /['"`]--[a-z][\w-]*[:(]|\bNotifyFlags\b/.test(readFileSync(join(root, f), 'utf8')));
    expect(flagWords).toEqual([]);
    expect(edges.filter((e) => under('src/notify/')(e.from) && (e.to === 'yargs' || under('src/cli/')(e.to)))).toEqual([]);
  });

  it('keeps batch logic out of `resq run`: it finds and lists batches through the library, never by calling the store', () => {
    const run = readFileSync(join(root, 'src/cli/commands/run.ts'), 'utf8');
    expect(run.match(/\bstore\.(?:findBatch|listBatches|latestBatch)\(/g) ?? []).toEqual([]);
    // It does hold a store (it opens one for the session): the check looks at real calls.
    expect(run).toMatch(/\bopenStore\(/);
  });

  it('says in comments what holds, not how it came to be: no issue number outside migrations, no measured time in the past tense', () => {
    // A migration is history by nature: its files, and a line naming one (`Migration 019 (issue 32)`), may say where it came from.
    const history: string[] = [];
    for (const f of sourceFiles('src').filter((f) => !f.endsWith('/migrations.ts'))) {
      readFileSync(join(root, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const comment = /^\s*(?:\/\/|\/?\*)/.test(line) || /\s\/\/\s/.test(line);
          if (!comment || /migration|\b0\d\d_[a-z_]+/i.test(line)) return;
          if (/\bissues? \d+(?:\.\d+)?\b/i.test(line) || /\b(?:took|spent|was|cost)\s+~?[\d.,]+\s*(?:µs|ms|s|%)(?![\w])/.test(line)) history.push(`${f}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(history).toEqual([]);
  });

  it('says who decided in one place (read/decision-text.ts), the errors leaf aside (it imports nothing)', () => {
    const spelled = sourceFiles('src').filter((f) => /'(?:by )?the policy'|'a person'|'by policy';/.test(readFileSync(join(root, f), 'utf8')));
    expect(spelled.sort()).toEqual(['src/errors.ts', 'src/read/decision-text.ts']);
  });

  it('keeps the store root to the port, its types and the opener: row mapping is in store/rows/, shared rules in store/common/, wording in read/', () => {
    const port = ['index.ts', 'port.ts', 'types.ts', 'shapes.ts', 'item-page-shapes.ts', 'item-states.ts', 'notify-settings.ts', 'keys.ts', 'settings-defaults.ts'];
    const opener = ['open.ts', 'location.ts', 'db-wait.ts'];
    // The outbox's migration text, on its way to the adapters' migration folders.
    const leaving = ['outbox-schema.ts'];
    const files = readdirSync(join(root, 'src/store')).filter((f) => f.endsWith('.ts'));
    expect(files.filter((f) => ![...port, ...opener, ...leaving].includes(f))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining([...port, ...opener]));
  });

  it('reads the time only through the one clock (src/clock.ts) outside the simulator', () => {
    const direct = sourceFiles('src')
      .filter((f) => !under('src/sim/')(f) && f !== 'src/clock.ts')
      .filter((f) => /Date\.now\(\)|new Date\(\)|from 'node:timers\/promises'|from 'node:timers'/.test(readFileSync(join(root, f), 'utf8')));
    expect(direct).toEqual([]);
  });

  it('waits only through the one clock outside the simulator: a bare setTimeout/setInterval is on the list of Node timers', () => {
    // Places that must have a Node timer, not the clock's sleep (which holds the process open
    // on purpose, and which a test's virtual clock ends at once).
    const nodeTimers = new Set([
      // The grace before hanging up a finished stream whose body has not ended: a deadline on a
      // real socket (wall time: a virtual clock would hang up on a body still arriving), unref'd.
      'src/api/stream-attempt.ts',
      // `resq models run`: an empty interval whose only job is to hold the event loop open
      // while the client polls (a ref'd Node handle is what does that).
      'src/cli/commands/models-actions.ts',
      // The PostgreSQL LISTEN connection tried again after it broke: unref'd, so a process
      // that is otherwise done exits (the clock's sleep would hold it open).
      'src/store/postgres/pool.ts',
      // A notify command's deadline (a real child process) and a leaving worker's bound on
      // sending (wall time on real sockets: a receiver that never answers cannot hold the
      // process past it; a virtual clock would end it at once).
      'src/notify/deliver.ts',
      'src/notify/sender.ts',
      // A command scorer's deadline: a real child process, killed with its group past it.
      'src/score/command-scorer.ts',
      // An event stream's `: keep-alive` comments to the browser: for proxies on a real
      // connection, wall time, cleared when the stream closes.
      'src/web/read-routes.ts',
      // A file claim's lease renewed while its download runs: real time, like the lease it
      // renews (the database's clock ends it), cleared when the download ends.
      'src/files/file-claim.ts',
    ]);
    const bare = sourceFiles('src')
      .filter((f) => !under('src/sim/')(f) && f !== 'src/clock.ts')
      .filter((f) => /(?<![\w.$])set(?:Timeout|Interval)\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(bare.filter((f) => !nodeTimers.has(f))).toEqual([]);
    // The list holds no stale entries: each still has its timer.
    expect([...nodeTimers].filter((f) => !bare.includes(f))).toEqual([]);
  });

  it('loads nothing of the simulator with the library: it is the subpath resq-cli/sim', () => {
    const loaded = loadedWith('src/index.ts');
    expect(loaded.has('src/runner/index.ts')).toBe(true);
    expect([...loaded].filter(under('src/sim/'))).toEqual([]);
  });

  it('has no runtime import cycle in src, dynamic imports included (type-only ones aside)', () => {
    // Tarjan's strongly connected components over runtime imports; a cycle is one of size > 1.
    const next = new Map<string, string[]>();
    for (const e of edges) if (!e.typeOnly && e.to.startsWith('src/')) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const cycles: string[][] = [];
    const visit = (v: string) => {
      index.set(v, index.size);
      low.set(v, index.get(v)!);
      stack.push(v);
      for (const w of next.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort());
      }
    };
    for (const file of next.keys()) if (!index.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('has no import cycle in src, type-only imports included: a cycle found is named file by file', () => {
    // A type-only circle loads nothing twice, yet it ties two modules into one: neither can be read
    // (or moved) without the other. The first circle found is named as a path back to its start.
    const next = new Map<string, string[]>();
    for (const e of edges) if (e.to.startsWith('src/')) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    expect(cycleIn(next)).toEqual([]);
    // The walk finds a circle where there is one, type-only edges included.
    const circle = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts', 'd.ts']]]);
    expect(cycleIn(circle)).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
    expect(cycleIn(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']]]))).toEqual([]);
  });

  it('spells the states in flight and the flight\'s columns in src/store/common only: no adapter file lists them (migrations keep their text)', () => {
    const { FLIGHT_COLUMNS } = flightRules;
    const adapters = sourceFiles('src').filter((f) => under('src/store/sqlite/')(f) || under('src/store/postgres/')(f));
    // A shipped migration keeps its own text: each adapter's migrations.ts, the bodies it imports and its migrations/ folder.
    const migrations = new Set([
      ...adapters.filter((f) => f.endsWith('/migrations.ts')).flatMap((f) => [f, ...edgesOf(f).map((e) => e.to)]),
      ...adapters.filter((f) => f.includes('/migrations/')),
    ]);
    const flightNames = new Set<string>(FLIGHT_COLUMNS);
    /** The longest run of comma-separated flight column names in `text` (quoted or not, an alias before each allowed). */
    const longestColumnRun = (text: string): number => {
      let run = 0;
      let best = 0;
      for (const part of text.split(',')) {
        const name = /(?:^|[\s[(])['"`]?(?:\w+\.)?(\w+)['"`]?\s*[\])]?;?\s*$/.exec(part)?.[1];
        run = name !== undefined && flightNames.has(name) ? run + 1 : 0;
        best = Math.max(best, run);
      }
      return best;
    };
    const STATES_LIST = /'(submitting|running|waiting)'\s*,\s*'(submitting|running|waiting)'\s*,\s*'(submitting|running|waiting)'/;
    const spelled = (text: string): string[] => [
      ...(STATES_LIST.test(text) ? ['the states in flight'] : []),
      ...(longestColumnRun(text) >= 5 ? ["the flight's columns"] : []),
    ];
    const found = adapters.filter((f) => !migrations.has(f)).flatMap((f) => spelled(readFileSync(join(root, f), 'utf8')).map((what) => `${f}: ${what}`));
    expect(found).toEqual([]);
    // The scan finds either list where one is spelled.
    expect(spelled(`state IN ('submitting', 'running', 'waiting')`)).toEqual(['the states in flight']);
    expect(spelled(`SELECT i.key, f.state, owner, fence, lease_until, pending_key, step FROM flights`)).toEqual(["the flight's columns"]);
    expect(spelled(`export const COLS = [\n  'state', 'owner', 'fence', 'lease_until', 'step',\n];`)).toEqual(["the flight's columns"]);
    expect(spelled(`UPDATE items SET state = ?, owner = NULL, lease_until = NULL`)).toEqual([]);
  });

  it('names command handlers one way: a command file exports its registrar (…Command) and its handlers (…Handler); CommandContext lives outside cli.ts', () => {
    // Helpers a command file shares with its tests or its sibling, named for what they make.
    const helpers = new Set(['countsLine', 'changeLine', 'pullHint', 'checkPort', 'simTryLines']);
    const odd: string[] = [];
    for (const f of sourceFiles('src').filter(under('src/cli/commands/'))) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const m of text.matchAll(/export (?:async )?function (\w+)/g)) {
        const name = m[1]!;
        if (!/(Command|Handler)$/.test(name) && !helpers.has(name)) odd.push(`${f}: ${name}`);
      }
    }
    expect(odd).toEqual([]);
    expect(readFileSync(join(root, 'src/cli/cli.ts'), 'utf8')).not.toMatch(/export interface CommandContext/);
  });
});
