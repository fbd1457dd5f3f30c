import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIN_TOKEN_BITS, tokenBits, weakTokenReason } from '../../src/web/token-strength.js';
import { newToken } from '../../src/web/server.js';

describe('token strength', () => {
  it('random tokens of 128 bits or more pass: resq\'s own, openssl rand -hex 16/24/32', () => {
    for (const t of [newToken(), randomBytes(16).toString('hex'), randomBytes(24).toString('hex'), randomBytes(32).toString('hex'), randomBytes(24).toString('base64url')]) {
      expect(tokenBits(t), t).toBeGreaterThanOrEqual(MIN_TOKEN_BITS);
      expect(weakTokenReason(t)).toBeNull();
    }
  });

  it('short, one repeated character, a repeated pattern or a run are refused, saying how to make one', () => {
    for (const t of ['aaaaaaaaaaaaaaaa', 'a'.repeat(200), 'ab12'.repeat(40), 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'.repeat(3), 'short-but-random-Xq9']) {
      expect(weakTokenReason(t), t).toMatch(/^too easy to guess \(about \d+ bits; at least 128 needed\): make one with: openssl rand -hex 32$/);
    }
    expect(weakTokenReason('with space and more than enough characters to pass 1234')).toMatch(/^use at most 200 letters, digits or \. _ ~ -/);
    expect(weakTokenReason('x'.repeat(201))).toMatch(/^use at most 200/);
  });
});
