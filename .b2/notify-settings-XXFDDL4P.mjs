import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  NOTIFY_DEFAULTS,
  checkNotifyFlags,
  checkReceiverUrl,
  notifyCommandOf,
  notifyFromFlags
} from "./chunk-NYF3W5K3.mjs";
import "./chunk-YODIRQJW.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  NOTIFY_DEFAULTS,
  checkNotifyFlags,
  checkReceiverUrl,
  notifyCommandOf,
  notifyFromFlags
};
//# sourceMappingURL=notify-settings-XXFDDL4P.mjs.map
