// Slack (Healthchecks' "slack"): the value is an incoming-webhook URL; SLACK_ENABLED switches it.
import { defineChannelKind } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';

export const slack = defineChannelKind({
  kind: 'slack',
  label: 'Slack',
  validateValue: requireHttpUrl,
  enabled: (settings) => settings.slackEnabled,
  requires: 'SLACK_ENABLED',
  transport: async () => (await import('./transport.ts')).slackTransport,
});
