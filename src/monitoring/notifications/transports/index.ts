// The transport of each channel kind: one registry, no if/else over kinds.
import type { ChannelKind } from '../../integrations/service.ts';
import { discordTransport, mattermostTransport, rocketChatTransport, slackTransport } from './chat.ts';
import { emailTransport } from './email.ts';
import { smsTransport } from './sms.ts';
import { webhookTransport } from './webhook.ts';
import type { Transport } from './transport.ts';

export const TRANSPORTS: Record<ChannelKind, Transport> = {
  email: emailTransport,
  webhook: webhookTransport,
  sms: smsTransport,
  slack: slackTransport,
  mattermost: mattermostTransport,
  rocketchat: rocketChatTransport,
  discord: discordTransport,
};
