import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  readPolicyCheck,
  readRuleView
} from "./chunk-FMF344S4.mjs";
import "./chunk-2KEABKLD.mjs";
import "./chunk-XCINQ3MG.mjs";
import "./chunk-O6UYGKUI.mjs";
import "./chunk-SYF23C3W.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-KVDTBB5J.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  readPolicyCheck,
  readRuleView
};
//# sourceMappingURL=policy-check-NJWAII6L.mjs.map
