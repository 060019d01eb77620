// Slack's incoming webhooks take Slack's attachment payload.
import { chatTransport, slackPayload } from '../shared/chat.ts';

// Slack answers 404 for a removed hook: it will not come back (Healthchecks agrees).
export const slackTransport = chatTransport({ payload: slackPayload, permanentStatuses: [404] });
