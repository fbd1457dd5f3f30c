import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  printable
} from "./chunk-5GEFFECR.mjs";
import {
  OverBudgetError,
  PauseMovedError
} from "./chunk-4EMWZ36I.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";

// src/cli/answer-refusal.ts
function refusalLine(e, batchName, db) {
  if (e instanceof PauseMovedError) return `resq: ${printable(e.message)}; ${commandHint(["resq", "show", batchName, e.itemId], { db })}
`;
  if (e instanceof OverBudgetError) return `resq: ${printable(e.message)}; give --over-budget to approve it anyway
`;
  return void 0;
}

export {
  refusalLine
};
//# sourceMappingURL=chunk-N33QDDMU.mjs.map
