import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  DEFAULT_SIM_PORT,
  serveSim
} from "./chunk-OW7E2O6L.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  DEFAULT_SIM_PORT,
  serveSim
};
//# sourceMappingURL=serve-VLGI4BOI.mjs.map
