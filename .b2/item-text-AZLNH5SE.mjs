import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  answerFlags,
  answerHint,
  describePause,
  formatItem
} from "./chunk-B54UIUN7.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-F57UOP2X.mjs";
import "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  answerFlags,
  answerHint,
  describePause,
  formatItem
};
//# sourceMappingURL=item-text-AZLNH5SE.mjs.map
