import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  leaseMsFromEnv
} from "./chunk-LZGVM7C3.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  leaseMsFromEnv
};
//# sourceMappingURL=lease-env-TNKAKIEN.mjs.map
