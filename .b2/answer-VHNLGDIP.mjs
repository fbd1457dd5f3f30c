import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  answerFor,
  answerHeldItem,
  pauseWaiting,
  whyNotHeld,
  whyRefused
} from "./chunk-2XYF3HAU.mjs";
import "./chunk-Q6TQJGNT.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-M4QEDMWX.mjs";
import "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  answerFor,
  answerHeldItem,
  pauseWaiting,
  whyNotHeld,
  whyRefused
};
//# sourceMappingURL=answer-VHNLGDIP.mjs.map
