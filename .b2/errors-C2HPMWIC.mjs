import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  AlreadyAnsweredError,
  BatchExistsError,
  ConfigError,
  InputError,
  ItemNotHeldError,
  LeaseLostError,
  OverBudgetError,
  PauseMovedError,
  ResqError,
  formatProblem
} from "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  AlreadyAnsweredError,
  BatchExistsError,
  ConfigError,
  InputError,
  ItemNotHeldError,
  LeaseLostError,
  OverBudgetError,
  PauseMovedError,
  ResqError,
  formatProblem
};
//# sourceMappingURL=errors-C2HPMWIC.mjs.map
