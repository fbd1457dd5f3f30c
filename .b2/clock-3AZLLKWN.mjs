import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  isoNow,
  sleep,
  systemClock
} from "./chunk-64FYAIQV.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  isoNow,
  sleep,
  systemClock
};
//# sourceMappingURL=clock-3AZLLKWN.mjs.map
