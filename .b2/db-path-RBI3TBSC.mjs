import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  checkDbPath,
  checkOutputPath,
  removeDatabase
} from "./chunk-KJQBQQMI.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  checkDbPath,
  checkOutputPath,
  removeDatabase
};
//# sourceMappingURL=db-path-RBI3TBSC.mjs.map
