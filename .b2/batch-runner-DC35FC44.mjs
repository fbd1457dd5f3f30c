import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  BatchRunner
} from "./chunk-3M5VKKMO.mjs";
import "./chunk-SYF23C3W.mjs";
import "./chunk-TLQTFDDA.mjs";
import "./chunk-HDST666U.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-7GICCHH3.mjs";
import "./chunk-YHPNXTWT.mjs";
import "./chunk-TNKZ5VT3.mjs";
import "./chunk-B3KHQ7FY.mjs";
import "./chunk-CZMGSLWJ.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-Q6TQJGNT.mjs";
import "./chunk-244VYD4W.mjs";
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
  BatchRunner
};
//# sourceMappingURL=batch-runner-DC35FC44.mjs.map
