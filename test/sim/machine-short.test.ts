import { describe, expect, it } from 'vitest';
import { isMachineShort } from '../../src/sim/machine-short.js';
import { LOCAL_FAULT_CODES } from '../../src/local-fault.js';

describe('isMachineShort', () => {
  it('names the shortages the client names (its own copy of the list), and nothing else', () => {
    for (const code of Object.keys(LOCAL_FAULT_CODES)) expect(isMachineShort(Object.assign(new Error(code), { code })), code).toBe(true);
    for (const code of ['ECONNRESET', 'EACCES', 'ENOENT', undefined]) expect(isMachineShort(Object.assign(new Error('x'), { code })), String(code)).toBe(false);
    expect(isMachineShort(null)).toBe(false);
    expect(isMachineShort('EMFILE')).toBe(false);
  });
});
