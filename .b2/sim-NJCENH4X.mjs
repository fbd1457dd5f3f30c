import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  DEFAULT_SIM_PORT,
  SimStateInUseError,
  lockPathOf,
  serveSim,
  sharedSim,
  startSim
} from "./chunk-OW7E2O6L.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  DEFAULT_SIM_PORT,
  SimStateInUseError,
  lockPathOf,
  serveSim,
  sharedSim,
  startSim
};
//# sourceMappingURL=sim-NJCENH4X.mjs.map
