import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  notifyFlagsOf,
  notifyOptions,
  sendOptionsFromEnv
} from "./chunk-T3XGDCMF.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  notifyFlagsOf,
  notifyOptions,
  sendOptionsFromEnv
};
//# sourceMappingURL=notify-flags-3VDWRMIL.mjs.map
