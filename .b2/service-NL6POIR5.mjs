import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  choiceFor,
  openService,
  resolveService,
  simStatePath
} from "./chunk-HT6CBTQB.mjs";
import "./chunk-2RMSLZTD.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  choiceFor,
  openService,
  resolveService,
  simStatePath
};
//# sourceMappingURL=service-NL6POIR5.mjs.map
