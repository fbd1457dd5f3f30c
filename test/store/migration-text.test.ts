import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations as pgMigrations, type Migration as PgMigration } from '../../src/store/postgres/migrations.js';
import { migrations, type Migration } from '../../src/store/sqlite/migrations.js';
import { sha256, sqliteMigrationTexts, sqliteSchema } from '../support/migration-text.js';

/**
 * Shipped migrations are frozen: each one's text, by its SHA-256, as it shipped. A database that
 * has not run a migration yet runs it later with whatever text the code then holds, so an edit
 * to a shipped migration (or to a constant it was built from) would silently make two databases
 * of one version differ. A new migration adds its line here (docs/internals.md, "Migrations are frozen").
 * A PostgreSQL migration's text is its `sql`. A SQLite migration's is every statement it runs on
 * a blank database migrated up to it (019 and 020 rebuild tables from what sqlite_master holds),
 * in order, the values bound to each after it: for one that runs one script, that script.
 */
const SQLITE_SHIPPED: Record<string, string> = {
  '001_batches_items_runs': 'b1323c00e326cdde3ee16e4afde0d8989b2122bc792c1c319f0d9af36bffdd25',
  '002_views': '344cc27b5f7e10a537439cc2d4af62950eafcbd9566e02d14b5a6e2cfcd97193',
  '004_model_runs': '2b2ebc9fef3e077b311d29df29daaeddc29173ef978cfbce1a2fcec72925598c',
  '005_state_index_without_queued': '07f9bdb6624ec1b7588aa0700cd02408bf79445d81780c31835c954e36c7595d',
  '006_workers_leases': '4a9f71773da65c394d89e79b2a2ce5a35dcc775994b2f6efc886c9d32efaff49',
  '007_decision_person': '7756c0c2ef00ece80a178fe0130c4317446664a953410675b854026de4fcddee',
  '008_error_codes': 'e0fcf668aeb4acb34827b8d66021a3ece983cface339f1fec6ddfbd3a1b6d33c',
  '009_file_copies': 'b13336ab51ed80f8095d695cdcc984433b89e0427babc92f99749099cfa73a9b',
  '010_web_items_updated': '26f02151e9c77f514dac87d529b40db15241ca8b744871bb5232540215394c53',
  '011_web_items_finished': 'f2fbe51904cb2eaa4c479229a34e6757540f59c1fc166c36b8e245cefd7c3402',
  '012_item_counts': '18107611a3ccfa779dabb9b58dc8e1a213a31d09f4e778f815bbed11d00ca5f7',
  '013_drop_items_owner': '4780aa06ed613bfe1b7951d7a4f928185e6e5197e4a32263f729bcda7ceda625',
  '014_fencing': 'e6c9d54822f7ad146a2382c8434de8fc5060a7723f07a5af9b723000b1370648',
  '015_worker_pid_start': 'eae27e1485aeb033088cec5ea066d42c5a4a70e9c91caf622ebe61e590acc646',
  '016_decision_log_person': '38a1b99ee914910ae38538ed5db11a780d7227c84820e9c873dc3682d9da5642',
  '017_outbox': '013e27d2a257b9af4ea15e213927db5ee6e2162d2afcb452ff21438b0c1cb9a0',
  '019_lean_items': '980e72642e97da382be506e383fe939c1b88ac286fcd4dccc7cd281de042c344',
  '020_batch_num_keys': '6af75292c6046216c07efd90fa5a3bab6aef0b3af366699407b4642be2e594f9',
  '021_decision_over_budget': '05e87f287de1a6395bf9a0e45ff8bf47ea9eeb0df0aa036e6634b0cb50a825a3',
  '023_notify_command_local': '85aaa5aa425f21ec7a1daee77b643f570ce2fa23e2d2c645de5cde3cdadb7588',
  '024_file_identity': '4c9be05eb0ffd83c9a79030a2e1dcae95ef1a177ce97eb640ab2dc02c997de7a',
  '025_web_sessions': '3fe1296b2c2955eb71345851aaf2940b5454429098bd1494c67d809ed8a8fe79',
  '026_run_service_times': 'd676d517e3782c53fb94c6ad6319084b3f26e53803e633bb8670317381141d50',
  '027_file_claims': '06da0f3d38b7d6afd733c3e035474b44ee93e63e79a39ccbc08c0c0ebcf207c1',
  '028_forecasts': '8b6165a6a0e8c19d4b0c1c45adb953ad47c43349709a06f211bb967e1155de86',
  '029_expected_and_verdicts': '693ca547987dc133f2ce9daa39b05e1de19d3b5c69400c37198831cbb9e81230',
  '030_claim_writes_flight': '0be30ab20d18de9df68bd4da8ea566b44d77ad2a0d90b1a281b18312130989a9',
  '031_flights_unsent': '0be6f1a1af872bf3a5c3ab322dc2f9dd69cb73256cf0933be979e5532494b3ac',
  '032_budget_group': '87336c951d6527017b6db9e04f7c61e53eb94365e2d8af62cc06915eeaecc65f',
  '033_state_trigger': '3fd4c71dec7017724643ce0a0640d730b7fd273691987e0f3682b766fa21436e',
};

const PG_SHIPPED: Record<string, string> = {
  '001_schema': 'da9acb544b37aa3777a42ca32d27a10456670d5a9f83c686ed454f5b8775fef2',
  '007_decision_person': '7756c0c2ef00ece80a178fe0130c4317446664a953410675b854026de4fcddee',
  '008_error_codes': '2a4219069b3c4b0b44f361f263479247fa8d7bccae37e0b7983a92dc5c2684a2',
  '009_file_copies': '164a6e2ab06769acd45c18fc45f0d02f6c13a5f929628fd6ef1710464a7af2a6',
  '010_web_items_updated': '26f02151e9c77f514dac87d529b40db15241ca8b744871bb5232540215394c53',
  '011_web_items_finished': 'f2fbe51904cb2eaa4c479229a34e6757540f59c1fc166c36b8e245cefd7c3402',
  '012_item_counts': 'f9e5b0d0bff5370db3c911a5f980b128e66c46876440c68d990563ef194d9798',
  '014_fencing': '3ad75c832561b7cf943a81e669086ff1935fd38c1312dfa6dae1c5de86c9cc4d',
  '015_worker_pid_start': 'eae27e1485aeb033088cec5ea066d42c5a4a70e9c91caf622ebe61e590acc646',
  '016_decision_log_person': '6c3619e7bf0408c56df7e2f1d3830bf52b7d521e28aa16e3e62cfb31f452055d',
  '017_outbox': '7b31668d3ee3744eca1df204c6063336a076b5d794da43ed5cf2c470599a3007',
  '019_lean_items': '1009076c6be383f439de485bbd2b9be9f879f62e523d80c50397521388edb05a',
  '020_batch_num_keys': 'd0a5368af88c20bb3ecf629bbf9801db5b565e2ef0b9fde8f1171600552c74ae',
  '021_decision_over_budget': 'e2aec46511e204db92223a8ef70a4f0505ae629cd026fbaff4fc2817f78a142d',
  '023_notify_command_local': 'aa3822d4e68795b06334301463e9943126161f2a14efa09bcb11bde47d108652',
  '024_file_identity': '4c9be05eb0ffd83c9a79030a2e1dcae95ef1a177ce97eb640ab2dc02c997de7a',
  '025_web_sessions': 'dc36560b3e480f904b16227b9bd8b448a04e6aa2320e027177275a4ef4f38995',
  '026_run_service_times': '92f4fad892d76103b17d2f625eb31368dd0b5aa03dae7a4af7fb0fbf34dc3b81',
  '027_file_claims': '9c2c550305ea4a8046a929a47c3ddd055c157a342f452e9f84d562c475f8269a',
  '028_forecasts': '63864a634145de00dbe87ee4c40d645f0c58841d5b849e3fd49907e6107e4aa7',
  '029_expected_and_verdicts': 'd5f90ff9d97d04110e153154c11d9a428f4bb58bc3fd20d5266b6d9c7e28ea59',
  '030_claim_writes_flight': 'c976cbbc5fc3456fbd1666f2978e9a4c4e2fe0ad5e939c3e132dba05786de2b3',
  '032_budget_group': '90c3a3505a4c0969d6aa6e5b26c01c95b60e0a1ee8f8d38d4daeba8a8f7171ac',
};

/**
 * The SHA-256 of the schema (sqlite_master) of a blank SQLite database migrated through
 * {@link SCHEMA_THROUGH}, as the migrations built it when they shipped (taken from the code before
 * their SQL was written as text): a later migration leaves it as it is.
 */
const SCHEMA_THROUGH = '026_run_service_times';
const SQLITE_SHIPPED_SCHEMA = '89acd3a77fb6e1208cc768c91cd14c413954c291ced94e9aa1db88e0a42b02e9';

/** One line for each migration whose text is not the one pinned, or that has none pinned, or that is pinned but gone. */
function unpinned(adapter: string, texts: ReadonlyMap<string, string>, pinned: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [name, text] of texts) {
    const hash = sha256(text);
    if (!(name in pinned)) {
      out.push(`${adapter} migration ${name} has no pinned hash: a new migration adds '${name}': '${hash}' to ${adapter.toUpperCase()}_SHIPPED in test/store/migration-text.test.ts`);
    } else if (pinned[name] !== hash) {
      out.push(`${adapter} migration ${name} changed (sha256 ${hash}, shipped ${pinned[name]}): a shipped migration is never edited, nor the text it runs; append a new migration instead`);
    }
  }
  for (const name of Object.keys(pinned)) if (!texts.has(name)) out.push(`${adapter} migration ${name} shipped and is gone: a shipped migration is never removed`);
  return out;
}

const pgTexts = (list: readonly PgMigration[]): Map<string, string> => new Map(list.map((m) => [m.name, m.sql]));

/** The repository's root: the files below are named from it. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The modules a file imports (static `import … from` and `export … from`). */
function importsOf(path: string): string[] {
  return [...readFileSync(join(ROOT, path), 'utf8').matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)].map((m) => m[1]!);
}

/** `db`'s property `key`, a method bound to it. */
function bound(db: object, key: string | symbol): unknown {
  const value = Reflect.get(db, key) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(db) : value;
}

describe('shipped migrations', () => {
  it('every SQLite migration runs the text it shipped with, and one without a pinned hash is named', () => {
    expect(unpinned('sqlite', sqliteMigrationTexts(migrations), SQLITE_SHIPPED)).toEqual([]);
  });

  it('every PostgreSQL migration holds the text it shipped with, and one without a pinned hash is named', () => {
    expect(unpinned('pg', pgTexts(pgMigrations), PG_SHIPPED)).toEqual([]);
  });

  it('a blank SQLite database migrated through 026 has the schema the migrations built as they shipped', () => {
    const through = migrations.slice(0, migrations.findIndex((m) => m.name === SCHEMA_THROUGH) + 1);
    expect(through.at(-1)?.name).toBe(SCHEMA_THROUGH);
    expect(sha256(sqliteSchema(through))).toBe(SQLITE_SHIPPED_SCHEMA);
  });

  it('a change of one character in a shipped migration fails, naming it, in either adapter', () => {
    const pg = pgMigrations.map((m) => (m.name === '017_outbox' ? { ...m, sql: `${m.sql} ` } : m));
    expect(unpinned('pg', pgTexts(pg), PG_SHIPPED)).toEqual([expect.stringMatching(/^pg migration 017_outbox changed \(sha256 [0-9a-f]{64}, shipped [0-9a-f]{64}\)/)]);
    // A statement of 020's rebuild made otherwise (as a live constant it once read would have made it).
    const sqlite = migrations.map((m): Migration =>
      m.name === '020_batch_num_keys' ? { ...m, up: (db) => m.up(new Proxy(db, { get: (t, k) => (k === 'exec' ? (sql: string) => t.exec(sql.replace('i.step', 'i.step ')) : bound(t, k)) })) } : m,
    );
    const texts = sqliteMigrationTexts(sqlite);
    expect(unpinned('sqlite', texts, SQLITE_SHIPPED)).toEqual([expect.stringMatching(/^sqlite migration 020_batch_num_keys changed/)]);
    expect(unpinned('sqlite', new Map([...texts, ['099_new', 'SELECT 1']]), SQLITE_SHIPPED)).toContain(
      `sqlite migration 099_new has no pinned hash: a new migration adds '099_new': '${sha256('SELECT 1')}' to SQLITE_SHIPPED in test/store/migration-text.test.ts`,
    );
  });

  it('no migration reaches live code: the modules its list imports are its own files', () => {
    const offending: string[] = [];
    for (const adapter of ['sqlite', 'postgres']) {
      const own = join('src/store', adapter, 'migrations');
      // The list of migrations, and what it imports from there on: the migrations' files, the clock (applied_at), the driver.
      const seen = new Set<string>();
      const walk = (file: string): void => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const spec of importsOf(file)) {
          if (!spec.startsWith('.')) {
            if (!['better-sqlite3', 'pg'].includes(spec)) offending.push(`${file} imports ${spec}`);
            continue;
          }
          const target = join(dirname(file), spec.replace(/\.js$/, '.ts'));
          if (target === 'src/clock.ts') continue;
          if (dirname(target) !== own) offending.push(`${file} imports ${target}`);
          else walk(target);
        }
      };
      walk(`${own}.ts`);
    }
    expect(offending).toEqual([]);
  });
});
