import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../src/notify/sign.js';

const SECRET = 'whsec-test-1';
const BODY = '{"id":"b.digest:1","type":"items.held"}';
const T = 1_800_000_000;

describe('the notification signature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">, as a receiver computes it with node:crypto', () => {
    const h = signatureHeader(SECRET, BODY, T + 0.7);
    expect(h).toBe(`t=${T},v1=${createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex')}`);
    expect(verifySignature(SECRET, h, BODY, { now: T * 1000 })).toBe(true);
  });

  it('fails an altered body, another secret, a replay outside the tolerance, and a malformed header', () => {
    const h = signatureHeader(SECRET, BODY, T);
    expect(verifySignature(SECRET, h, BODY.replace('held', 'hold'), { now: T * 1000 })).toBe(false);
    expect(verifySignature('other', h, BODY, { now: T * 1000 })).toBe(false);
    expect(verifySignature(SECRET, h, BODY, { now: (T + 301) * 1000 })).toBe(false);
    expect(verifySignature(SECRET, h, BODY, { now: (T + 60) * 1000, toleranceS: 30 })).toBe(false);
    expect(verifySignature(SECRET, h, BODY, { now: (T + 299) * 1000 })).toBe(true);
    for (const bad of [null, '', 't=abc,v1=00', `t=${T}`, `v1=${'0'.repeat(64)}`, `t=${T},v1=${'z'.repeat(64)}`]) expect(verifySignature(SECRET, bad, BODY, { now: T * 1000 })).toBe(false);
  });
});
