import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  loadPolicyFile,
  parsePolicy,
  policyYaml
} from "./chunk-XCINQ3MG.mjs";
import "./chunk-O6UYGKUI.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-KVDTBB5J.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  loadPolicyFile,
  parsePolicy,
  policyYaml
};
//# sourceMappingURL=policy-file-JJNDR3R6.mjs.map
