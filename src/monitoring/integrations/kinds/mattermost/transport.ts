// Mattermost's incoming webhooks take Slack's attachment payload.
import { chatTransport, slackPayload } from '../shared/chat.ts';

export const mattermostTransport = chatTransport({ payload: slackPayload });
