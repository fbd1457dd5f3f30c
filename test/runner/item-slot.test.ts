import { describe, expect, it } from 'vitest';
import { ItemSlot, type SlotHost } from '../../src/runner/item-slot.js';

function host(): SlotHost & { log: string[] } {
  const log: string[] = [];
  return { log, admitted: () => void log.push('admitted'), endedEarly: (id) => void log.push(`ended ${id}`), freed: () => void log.push('freed'), rereading: () => void log.push('rereading'), reread: () => void log.push('reread') };
}

describe('ItemSlot', () => {
  it('releases early once: the item counted as ended, the slot freed, a later free does nothing', () => {
    const h = host();
    const slot = new ItemSlot(h, { id: 'i1', threadKey: null }, new AbortController().signal, true);
    slot.admitted();
    slot.release();
    slot.release();
    slot.free();
    expect(slot.early).toBe(true);
    expect(slot.fresh).toBe(true);
    expect(h.log).toEqual(['admitted', 'ended i1', 'freed']);
  });

  it('keeps a thread item\'s slot to the end: release does nothing, free frees it once', () => {
    const h = host();
    const slot = new ItemSlot(h, { id: 'i2', threadKey: 't' }, new AbortController().signal, false);
    slot.release();
    expect(h.log).toEqual([]);
    slot.free();
    slot.free();
    expect(slot.early).toBe(false);
    expect(h.log).toEqual(['freed']);
  });

  it('counts a read again once with its host, and ends the count once; an early release frees the slot but keeps counting', () => {
    const h = host();
    const slot = new ItemSlot(h, { id: 'i4', threadKey: null }, new AbortController().signal, false);
    slot.rereading();
    slot.rereading();
    slot.reread();
    slot.reread();
    slot.rereading();
    slot.release();
    slot.reread();
    slot.free();
    expect(h.log).toEqual(['rereading', 'reread', 'rereading', 'ended i4', 'freed', 'reread']);
  });

  it('keeps its behaviour on the prototype: its own fields are the signal and freshness, no function per item', () => {
    const h = host();
    const slot = new ItemSlot(h, { id: 'i3', threadKey: null }, new AbortController().signal, false);
    const { signal } = slot;
    expect(signal.aborted).toBe(false);
    expect(Object.keys(slot)).toEqual(['signal', 'fresh']);
    expect(Object.values(slot).some((v) => typeof v === 'function')).toBe(false);
    expect(slot.release).toBe(ItemSlot.prototype.release);
  });
});
