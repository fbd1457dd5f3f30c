import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  FAILED_LISTED,
  STALE_MS,
  batchCard,
  countIn,
  nextStepOf,
  readBatchStatus,
  readNextStep,
  readWaitContext,
  resumeCommand,
  unfinishedOf,
  waitContextOf,
  workersOf
} from "./chunk-244VYD4W.mjs";
import "./chunk-IVI4HKH5.mjs";
import "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import "./chunk-MH23QIYG.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-M4QEDMWX.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-F57UOP2X.mjs";
import "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  FAILED_LISTED,
  STALE_MS,
  batchCard,
  countIn,
  nextStepOf,
  readBatchStatus,
  readNextStep,
  readWaitContext,
  resumeCommand,
  unfinishedOf,
  waitContextOf,
  workersOf
};
//# sourceMappingURL=batch-status-MHQWPTOJ.mjs.map
