import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  driveSession,
  sessionConnector
} from "./chunk-RZMXQJVK.mjs";
import "./chunk-I7JJSHCE.mjs";
import "./chunk-KFXNTISD.mjs";
import "./chunk-H2ILHW7V.mjs";
import "./chunk-LZGVM7C3.mjs";
import "./chunk-FEF6I5IO.mjs";
import "./chunk-HT6CBTQB.mjs";
import "./chunk-GOFJ5TZN.mjs";
import "./chunk-B54UIUN7.mjs";
import "./chunk-CHVFPQGZ.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import "./chunk-QFB6ZTTJ.mjs";
import "./chunk-2A6FAXNZ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-ELXTCS3C.mjs";
import "./chunk-RJ3MMPSI.mjs";
import "./chunk-7GICCHH3.mjs";
import "./chunk-YHPNXTWT.mjs";
import "./chunk-TNKZ5VT3.mjs";
import "./chunk-RVC6YWNH.mjs";
import "./chunk-CZMGSLWJ.mjs";
import "./chunk-KD7OSFDT.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-UPSBM6NF.mjs";
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
  driveSession,
  sessionConnector
};
//# sourceMappingURL=attach-7BODV74C.mjs.map
