import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/cli/io.ts
var STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
function line(out, text) {
  out.write(`${text}
`);
}
var RESTORE_TERMINAL = "\x1B[?25h\x1B[?7h";

export {
  STOP_SIGNALS,
  line,
  RESTORE_TERMINAL
};
//# sourceMappingURL=chunk-RJ3MMPSI.mjs.map
