export { type ConfigDocument, parseConfigText, readConfigFile } from './config-file.js';
export { loadPolicyFile, parsePolicy } from './policy-file.js';
export { type LineOf, type Origin, describe, friendlyErrors, problem, zodProblems } from './zod-problems.js';
