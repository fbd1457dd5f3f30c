export { type DecideContext, type Decision, type PendingAction, decide } from './decide.js';
export { type Policy, policySchema } from './schema.js';
