import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  SourceChangedError,
  checkUnchanged,
  defaultBatchName
} from "./chunk-CHVFPQGZ.mjs";
import "./chunk-UPSBM6NF.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  SourceChangedError,
  checkUnchanged,
  defaultBatchName
};
//# sourceMappingURL=batch-source-IGMDXKEY.mjs.map
