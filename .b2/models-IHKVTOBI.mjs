import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  formatDescription,
  formatTable,
  prepareInputs,
  runOne
} from "./chunk-BLDQG6G7.mjs";
import {
  ModelBatchRunner,
  PollPlan,
  checkInputs,
  checkValue,
  classifyField,
  coerceText,
  defaultModelBatchName,
  fileOutputs,
  inputFormat,
  inputsByName,
  modelBatchStatus,
  modelInputSchema,
  modelResultRows,
  normaliseType,
  openModelBatch,
  readModelInputs,
  runModelSession,
  streamModelInputs,
  writeModelResults
} from "./chunk-ADLXR26K.mjs";
import "./chunk-CHVFPQGZ.mjs";
import "./chunk-TLQTFDDA.mjs";
import "./chunk-HDST666U.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-5GMYQBJP.mjs";
import "./chunk-UQ4YZVT5.mjs";
import "./chunk-QFB6ZTTJ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-UM7NX3RY.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-7GICCHH3.mjs";
import "./chunk-YHPNXTWT.mjs";
import "./chunk-TNKZ5VT3.mjs";
import "./chunk-B3KHQ7FY.mjs";
import "./chunk-CZMGSLWJ.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-UZQXFT2K.mjs";
import "./chunk-6ELOTNCY.mjs";
import "./chunk-UPSBM6NF.mjs";
import "./chunk-ADUNF5BB.mjs";
import "./chunk-Q6TQJGNT.mjs";
import "./chunk-IVI4HKH5.mjs";
import "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import "./chunk-MH23QIYG.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  ModelBatchRunner,
  PollPlan,
  checkInputs,
  checkValue,
  classifyField,
  coerceText,
  defaultModelBatchName,
  fileOutputs,
  formatDescription,
  formatTable,
  inputFormat,
  inputsByName,
  modelBatchStatus,
  modelInputSchema,
  modelResultRows,
  normaliseType,
  openModelBatch,
  prepareInputs,
  readModelInputs,
  runModelSession,
  runOne,
  streamModelInputs,
  writeModelResults
};
//# sourceMappingURL=models-IHKVTOBI.mjs.map
