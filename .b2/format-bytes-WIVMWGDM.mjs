import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  formatBytes
} from "./chunk-NOQYOQA2.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  formatBytes
};
//# sourceMappingURL=format-bytes-WIVMWGDM.mjs.map
