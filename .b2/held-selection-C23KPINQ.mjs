import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  checkHeldFilter,
  heldMatches,
  parseWhere,
  selectHeld
} from "./chunk-LBCVOCDB.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  checkHeldFilter,
  heldMatches,
  parseWhere,
  selectHeld
};
//# sourceMappingURL=held-selection-C23KPINQ.mjs.map
