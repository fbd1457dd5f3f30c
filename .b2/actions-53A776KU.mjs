import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  libraryActions
} from "./chunk-S22SQRXD.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  libraryActions
};
//# sourceMappingURL=actions-53A776KU.mjs.map
