import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  findRunsBatch,
  openBatch,
  openBatches,
  openExistingStore
} from "./chunk-NM7XIBVS.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-KJQBQQMI.mjs";
import "./chunk-B3KHQ7FY.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-Q6TQJGNT.mjs";
import "./chunk-MH23QIYG.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  findRunsBatch,
  openBatch,
  openBatches,
  openExistingStore
};
//# sourceMappingURL=open-batch-CUDFMHLW.mjs.map
