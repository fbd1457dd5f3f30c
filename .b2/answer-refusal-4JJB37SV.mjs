import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  refusalLine
} from "./chunk-N33QDDMU.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  refusalLine
};
//# sourceMappingURL=answer-refusal-4JJB37SV.mjs.map
