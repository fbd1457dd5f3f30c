import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import "./chunk-5OSXGZ5J.mjs";

// src/web/token-strength.ts
var MIN_TOKEN_BITS = 128;
var MAKE_TOKEN = "make one with: openssl rand -hex 32";
function tokenBits(token) {
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
    const predictable = step === 0 || step !== null && before !== null && step === before && Math.abs(step) <= 2;
    bits += predictable ? 1 : perChar;
  }
  return Math.floor(bits);
}
function weakTokenReason(token) {
  if (!/^[A-Za-z0-9._~-]{1,200}$/.test(token)) return `use at most 200 letters, digits or . _ ~ - (it goes in a URL); ${MAKE_TOKEN}`;
  const bits = tokenBits(token);
  if (bits < MIN_TOKEN_BITS) return `too easy to guess (about ${bits} bits; at least ${MIN_TOKEN_BITS} needed): ${MAKE_TOKEN}`;
  return null;
}
export {
  MAKE_TOKEN,
  MIN_TOKEN_BITS,
  tokenBits,
  weakTokenReason
};
//# sourceMappingURL=token-strength-R5CRHWEK.mjs.map
