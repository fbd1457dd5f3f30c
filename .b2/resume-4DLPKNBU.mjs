import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  resumeCommand,
  resumeHandler
} from "./chunk-SLB2XFBV.mjs";
import "./chunk-KZVLWJOD.mjs";
import "./chunk-T3XGDCMF.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  resumeCommand,
  resumeHandler
};
//# sourceMappingURL=resume-4DLPKNBU.mjs.map
