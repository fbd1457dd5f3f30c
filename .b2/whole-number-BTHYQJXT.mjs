import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  wholeNumber
} from "./chunk-KZVLWJOD.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  wholeNumber
};
//# sourceMappingURL=whole-number-BTHYQJXT.mjs.map
