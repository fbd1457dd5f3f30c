export { type ConfigDocument, parseConfigText, readConfigFile } from './config-file.js';
export { type DecideContext, type Decision, type PendingAction, decide } from './decide.js';
export { type Policy, loadPolicyFile, parsePolicy, policySchema } from './schema.js';
export { type LineOf, type Origin } from './zod-problems.js';
