import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  missingStoreMembers,
  OPTIONAL_STORE_MEMBERS,
  openStore,
  STORE_ROLES,
  STORE_VALUE_MEMBERS,
  type BatchStore,
  type FileStore,
  type ModelStore,
  type NotebookStore,
  type OutboxStore,
  type ReadStore,
  type Store,
  type StoreLifecycle,
  type StoreMember,
  type StoreRoles,
  type TransitionStore,
  type WebSessionStore,
  type ForecastStore,
  type ScoreStore,
  type WorkerStore,
} from '../../src/index.js';
import type { UnlistedMember } from '../../src/store/port.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';

// The store port is the sum of its roles (issue 21.6): each member in exactly one role, the
// runtime lists equal to the roles, and every adapter carrying every member (the SQLite one
// here; both in the store contract, test/store/contract.ts).

type RoleName = keyof StoreRoles;
/** Members two different roles of `R` share (never when the roles are disjoint). */
type SharedMember<R> = { [A in keyof R]: { [B in Exclude<keyof R, A>]: keyof R[A] & keyof R[B] }[Exclude<keyof R, A>] }[keyof R];
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
type ValueKeys<T> = { [K in keyof T]-?: NonNullable<T[K]> extends (...args: never[]) => unknown ? never : K }[keyof T];

const roleNames = Object.keys(STORE_ROLES) as RoleName[];
const allListed: string[] = Object.values(STORE_ROLES).flat();

describe('the store port by role: types', () => {
  it('gives no member to two roles', () => {
    expectTypeOf<SharedMember<StoreRoles>>().toBeNever();
    // The check sees a shared member: a role that also had `close` would share it with the lifecycle.
    expectTypeOf<SharedMember<StoreRoles & { extra: { close(): Promise<void> } }>>().toEqualTypeOf<'close'>();
  });

  it("makes Store's members exactly the roles' members together", () => {
    expectTypeOf<keyof Store>().toEqualTypeOf<StoreMember>();
    type AllRoles = StoreLifecycle & BatchStore & WorkerStore & TransitionStore & ReadStore & FileStore & ModelStore & NotebookStore & OutboxStore & WebSessionStore & ForecastStore & ScoreStore;
    expectTypeOf<Store>().toExtend<AllRoles>();
    expectTypeOf<AllRoles>().toExtend<Store>();
  });

  it("keeps STORE_ROLES' lists equal to the roles' members", () => {
    expectTypeOf<{ [N in RoleName]: (typeof STORE_ROLES)[N][number] }>().toEqualTypeOf<{ [N in RoleName]: keyof StoreRoles[N] }>();
    expectTypeOf<UnlistedMember>().toBeNever();
  });

  it('lists the optional members and the value members as the port declares them', () => {
    expectTypeOf<(typeof OPTIONAL_STORE_MEMBERS)[number]>().toEqualTypeOf<OptionalKeys<Store>>();
    expectTypeOf<(typeof STORE_VALUE_MEMBERS)[number]>().toEqualTypeOf<ValueKeys<Store>>();
  });

  it('has both adapters implement the whole port', () => {
    expectTypeOf<SqliteStore>().toExtend<Store>();
    expectTypeOf<PostgresStore>().toExtend<Store>();
  });
});

describe('the store port by role: the runtime lists', () => {
  it('names the twelve roles', () => {
    expect(roleNames).toEqual(['lifecycle', 'batches', 'workers', 'transitions', 'reads', 'files', 'models', 'notebook', 'outbox', 'webSessions', 'forecasts', 'scores']);
  });

  it('lists every member once over all roles', () => {
    const seen = new Map<string, RoleName>();
    const twice: string[] = [];
    for (const role of roleNames)
      for (const m of STORE_ROLES[role]) {
        if (seen.has(m)) twice.push(`${m} in ${seen.get(m)} and ${role}`);
        seen.set(m, role);
      }
    expect(twice).toEqual([]);
    expect(allListed.length).toBeGreaterThan(60);
  });

  it('lists the optional and value members among the roles', () => {
    for (const m of [...OPTIONAL_STORE_MEMBERS, ...STORE_VALUE_MEMBERS]) expect(allListed).toContain(m);
  });
});

describe('the store port by role: the SQLite adapter', () => {
  const dir = tempDir('resq-port-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has every member of every role (opened with openStore on a temp file)', async () => {
    const store = await openStore(join(dir, 'port.db'));
    try {
      expect(store).toBeInstanceOf(SqliteStore);
      expect(missingStoreMembers(store)).toEqual([]);
      // A role-typed view of the store is the store itself, and it works.
      const batches: BatchStore = store;
      expect(await batches.findBatch('no-such-batch')).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('is caught missing a member (the check can fail)', async () => {
    const store = await openStore(join(dir, 'port-broken.db'));
    try {
      const broken = Object.create(store, { heartbeat: { value: undefined }, onAnswered: { value: 'not a function' } }) as Store;
      expect(missingStoreMembers(broken)).toEqual(['workers.heartbeat: undefined', 'reads.onAnswered: string']);
    } finally {
      await store.close();
    }
  });
});
