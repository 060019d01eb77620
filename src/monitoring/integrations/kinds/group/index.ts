// A group (Healthchecks' "group"): one channel standing for several of the project's channels.
// Healthchecks' Group transport notifies each member in turn; here a group's alert is queued as
// one notification per member when the flip is recorded (notifications/recipients.ts), so each
// member is retried on its own and a member's retry never sends to the others again.
import { defineChannelKind } from '../definition.ts';
import { groupMembers, validateGroupMembers, validateGroupValue, groupConfig } from './config.ts';

export const group = defineChannelKind({
  kind: 'group',
  label: 'Group',
  overHttp: false,
  validateValue: validateGroupValue,
  config: groupConfig,
  members: groupMembers,
  validateInProject: validateGroupMembers,
  transport: async () => (await import('./transport.ts')).groupTransport,
});
