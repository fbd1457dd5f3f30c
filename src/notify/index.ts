// Notifications: who a batch tells when a person is needed, when it finished,
// stalled or reached its budget; delivered once through the store's outbox. A library: never
// prints.
export { verifySignature, signatureHeader, SIGNATURE_HEADER, type VerifyOptions } from './sign.js';
export { buildEvent, eventId, pageLinks, EVENT_TYPES, type EventDoc, type HeldItemDoc } from './events.js';
export { slackText } from './slack.js';
export { Notifier, type NotifierOptions, type NotifierStore } from './sender.js';
export { startWorkerNotifier, startServeNotifier, type SendOptions } from './worker.js';
