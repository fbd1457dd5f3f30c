export { type DecideContext, type Decision, type PendingAction, decide } from './decide.js';
export { type Policy, policySchema } from './schema.js';
export { type PastPause, type PauseDifference, type PolicyCheck, type ToolCheck, type Verdict, checkPolicy, verdictOf } from './check.js';
export { type ProposedRule, proposeRule } from './propose.js';
