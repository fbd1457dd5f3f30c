import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  appendJudgings,
  ensureJudgeBatch,
  isJudgeBatch,
  judgeBatchName,
  judgeItemId,
  judgePolicy,
  judgedRefOf,
  judgingCost,
  judgingUnderWay
} from "./chunk-VUJC3A3Q.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-ADUNF5BB.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  appendJudgings,
  ensureJudgeBatch,
  isJudgeBatch,
  judgeBatchName,
  judgeItemId,
  judgePolicy,
  judgedRefOf,
  judgingCost,
  judgingUnderWay
};
//# sourceMappingURL=judge-batch-IOU73L45.mjs.map
