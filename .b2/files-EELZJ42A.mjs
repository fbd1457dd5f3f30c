import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  Downloader,
  EXPIRY_WARNING_MS,
  IncompleteBodyError,
  PathBook,
  checkOnDisk,
  classifyFailure,
  defaultOutDir,
  discardStalePartials,
  emptySummary,
  expiryOf,
  filesStatus,
  formatDuration,
  goneStatus,
  hashFile,
  pullFiles,
  verifyFiles,
  writeAtomically
} from "./chunk-N7BTQGOS.mjs";
import {
  MAX_NAME_BYTES,
  UnsafePathError,
  cutToBytes,
  extensionFor,
  fileNameFor,
  isInside,
  resolveInside,
  safeFolderName,
  safeSegment,
  splitExtension,
  uniqueName,
  withCollisionSuffix
} from "./chunk-BBCHWSG3.mjs";
import "./chunk-HDST666U.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-YHPNXTWT.mjs";
import "./chunk-TNKZ5VT3.mjs";
import "./chunk-B3KHQ7FY.mjs";
import "./chunk-CZMGSLWJ.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-Q6TQJGNT.mjs";
import "./chunk-IVI4HKH5.mjs";
import "./chunk-MH23QIYG.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  Downloader,
  EXPIRY_WARNING_MS,
  IncompleteBodyError,
  MAX_NAME_BYTES,
  PathBook,
  UnsafePathError,
  checkOnDisk,
  classifyFailure,
  cutToBytes,
  defaultOutDir,
  discardStalePartials,
  emptySummary,
  expiryOf,
  extensionFor,
  fileNameFor,
  filesStatus,
  formatDuration,
  goneStatus,
  hashFile,
  isInside,
  pullFiles,
  resolveInside,
  safeFolderName,
  safeSegment,
  splitExtension,
  uniqueName,
  verifyFiles,
  withCollisionSuffix,
  writeAtomically
};
//# sourceMappingURL=files-EELZJ42A.mjs.map
