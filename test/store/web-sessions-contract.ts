import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_TOUCH_MS, WEB_SESSION_KEEP_MS } from '../../src/store/common/web-sessions.js';
import type { Store } from '../../src/store/port.js';

/**
 * The web sessions role (issue 37.5), written against `Store` only: a session and a login code
 * are kept by digest in the database, so an ending holds for every connection to it and for
 * good; `open(where)` opens one more connection to the same database.
 */

const NOW = 1_700_000_000_000;
const IDLE = 8 * 3_600_000;

export function webSessionsContract(name: string, fresh: () => Promise<string>, open: (where: string) => Promise<Store>): void {
  describe(`web sessions and login codes in the store (${name})`, () => {
    const opened: Store[] = [];
    const connect = async (where: string): Promise<Store> => {
      const s = await open(where);
      opened.push(s);
      return s;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('a session lives while used within the idle limit; unknown ones are refused', async () => {
      const s = await connect(await fresh());
      await s.openWebSession('d1', NOW);
      expect(await s.useWebSession('d1', IDLE, NOW + IDLE)).toBe(true);
      expect(await s.useWebSession('d1', IDLE, NOW + 2 * IDLE - SESSION_TOUCH_MS)).toBe(true);
      expect(await s.useWebSession('nope', IDLE, NOW)).toBe(false);
    });

    it('an ended session, signed out or found idle, stays ended: on another connection and when the clock goes back', async () => {
      const where = await fresh();
      const [a, b] = [await connect(where), await connect(where)];
      await a.openWebSession('out', NOW);
      await a.openWebSession('idle', NOW);
      expect(await b.useWebSession('out', IDLE, NOW + 1)).toBe(true);
      await a.endWebSession('out', NOW + 2);
      expect(await b.useWebSession('out', IDLE, NOW + 3)).toBe(false);
      expect(await b.useWebSession('idle', IDLE, NOW + IDLE + 1)).toBe(false);
      expect(await a.useWebSession('idle', IDLE, NOW + 10)).toBe(false);
      const again = await connect(where);
      expect(await again.useWebSession('out', IDLE, NOW + 4)).toBe(false);
      expect(await again.useWebSession('idle', IDLE, NOW + 11)).toBe(false);
    });

    it('a login code is spent once, dies at its hour, and two connections spending it at once get it once', async () => {
      const where = await fresh();
      const [a, b] = [await connect(where), await connect(where)];
      await a.addLoginCode('c1', NOW + 60_000, NOW);
      await a.addLoginCode('late', NOW + 60_000, NOW);
      await a.addLoginCode('raced', NOW + 60_000, NOW);
      expect(await b.spendLoginCode('c1', NOW + 60_000)).toBe(true);
      expect(await a.spendLoginCode('c1', NOW + 1)).toBe(false);
      expect(await a.spendLoginCode('late', NOW + 60_001)).toBe(false);
      expect(await a.spendLoginCode('never-made', NOW)).toBe(false);
      const won = await Promise.all([a.spendLoginCode('raced', NOW + 5), b.spendLoginCode('raced', NOW + 5)]);
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it('sessions and codes long dead are dropped when new ones are made, and stay refused', async () => {
      const s = await connect(await fresh());
      await s.openWebSession('old', NOW);
      await s.addLoginCode('old-code', NOW + 1, NOW);
      const later = NOW + WEB_SESSION_KEEP_MS + 2;
      await s.openWebSession('new', later);
      await s.addLoginCode('new-code', later + 60_000, later);
      expect(await s.useWebSession('old', Number.MAX_SAFE_INTEGER, later)).toBe(false);
      expect(await s.spendLoginCode('old-code', NOW)).toBe(false);
      expect(await s.useWebSession('new', IDLE, later)).toBe(true);
      expect(await s.spendLoginCode('new-code', later)).toBe(true);
    });
  });
}
