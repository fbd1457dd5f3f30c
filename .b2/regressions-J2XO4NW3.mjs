import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  changeInWords,
  pairVerdicts,
  regressionSummary
} from "./chunk-74HQCBTK.mjs";
import "./chunk-UQ4YZVT5.mjs";
import "./chunk-EL7BER4H.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  changeInWords,
  pairVerdicts,
  regressionSummary
};
//# sourceMappingURL=regressions-J2XO4NW3.mjs.map
