import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  deciderLine,
  deciderOf
} from "./chunk-F57UOP2X.mjs";
import {
  decisionWords
} from "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  deciderLine,
  deciderOf,
  decisionWords
};
//# sourceMappingURL=decider-VZA3T4BX.mjs.map
