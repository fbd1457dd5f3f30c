import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/local-fault.ts
var LOCAL_FAULT_CODES = {
  EMFILE: "this process has too many open files",
  ENFILE: "this machine has too many open files",
  ENOMEM: "this machine is out of memory",
  ENOBUFS: "this machine is out of buffer space",
  ENOSPC: "this machine's disk is full"
};
function isLocalCode(code) {
  return typeof code === "string" && Object.hasOwn(LOCAL_FAULT_CODES, code);
}
function isLocalErrno(err) {
  return isLocalCode(err?.code);
}

export {
  LOCAL_FAULT_CODES,
  isLocalCode,
  isLocalErrno
};
//# sourceMappingURL=chunk-TNKZ5VT3.mjs.map
