import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  HELD_WAIT_BUCKETS,
  budgetOf,
  heldWaitSeconds,
  histogramOf,
  readHeldWaits
} from "./chunk-M4QEDMWX.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  HELD_WAIT_BUCKETS,
  budgetOf,
  heldWaitSeconds,
  histogramOf,
  readHeldWaits
};
//# sourceMappingURL=spend-JE5P7SZW.mjs.map
