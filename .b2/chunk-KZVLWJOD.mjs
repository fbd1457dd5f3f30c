import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";

// src/cli/whole-number.ts
function wholeNumber(flag, value, min, max, hint = "") {
  if (value !== void 0 && (!Number.isInteger(value) || value < min || value > max))
    throw new InputError(`--${flag}: must be a whole number from ${min} to ${max}${hint}, got ${value}`);
  return value;
}

export {
  wholeNumber
};
//# sourceMappingURL=chunk-KZVLWJOD.mjs.map
