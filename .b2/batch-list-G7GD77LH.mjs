import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  holdsNoBatch
} from "./chunk-EB3O5FDB.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  holdsNoBatch
};
//# sourceMappingURL=batch-list-G7GD77LH.mjs.map
