import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  failedLine,
  formatStatus,
  heldLine,
  rateLine,
  scoreLines
} from "./chunk-KFXNTISD.mjs";
import "./chunk-H2ILHW7V.mjs";
import "./chunk-B54UIUN7.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import "./chunk-MH23QIYG.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-F57UOP2X.mjs";
import "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  failedLine,
  formatStatus,
  heldLine,
  rateLine,
  scoreLines
};
//# sourceMappingURL=summary-5DP4PQDI.mjs.map
