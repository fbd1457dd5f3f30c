/** Least strength of a token given to `resq serve` (RESQ_SERVE_TOKEN), in bits. */
export const MIN_TOKEN_BITS = 128;

/** How to make a good one, for the message that refuses a weak one. */
export const MAKE_TOKEN = 'make one with: openssl rand -hex 32';

/**
 * A generous estimate of how many bits of guessing a token takes: its characters' alphabet
 * (lower case, upper case, digits, punctuation: the classes it uses) to the power of its
 * length, where a token that repeats a shorter part counts only that part, and a character
 * that repeats the one before it or continues a run (abc, 987, acegi) counts one bit.
 */
export function tokenBits(token: string): number {
  let period = token.length;
  for (let p = 1; p < token.length; p++) {
    let repeats = true;
    for (let i = p; i < token.length && repeats; i++) repeats = token[i] === token[i - p];
    if (repeats) {
      period = p;
      break;
    }
  }
  const unit = token.slice(0, period);
  let pool = 0;
  if (/[a-z]/.test(unit)) pool += 26;
  if (/[A-Z]/.test(unit)) pool += 26;
  if (/[0-9]/.test(unit)) pool += 10;
  if (/[^a-zA-Z0-9]/.test(unit)) pool += 4;
  const perChar = Math.log2(Math.max(pool, 2));
  let bits = 0;
  for (let i = 0; i < unit.length; i++) {
    const step = i > 0 ? unit.charCodeAt(i) - unit.charCodeAt(i - 1) : null;
    const before = i > 1 ? unit.charCodeAt(i - 1) - unit.charCodeAt(i - 2) : null;
    const predictable = step === 0 || (step !== null && before !== null && step === before && Math.abs(step) <= 2);
    bits += predictable ? 1 : perChar;
  }
  return Math.floor(bits);
}

/** Why a given token is refused (one line, saying how to make one), or null when it is strong enough. */
export function weakTokenReason(token: string): string | null {
  if (!/^[A-Za-z0-9._~-]{1,200}$/.test(token)) return `use at most 200 letters, digits or . _ ~ - (it goes in a URL); ${MAKE_TOKEN}`;
  const bits = tokenBits(token);
  if (bits < MIN_TOKEN_BITS) return `too easy to guess (about ${bits} bits; at least ${MIN_TOKEN_BITS} needed): ${MAKE_TOKEN}`;
  return null;
}
