// Webhooks (Healthchecks' "webhook"): a bare URL that gets our JSON document, or Healthchecks'
// spec with a request per status. The only kind with a structured configuration.
import { defineChannelKind, type Notifies } from '../definition.ts';
import { requireHttpUrl } from '../shared/url.ts';
import { patchWebhookSpec, validateWebhookSpec, webhookSpecFromValue, webhookValue } from './spec.ts';

const BOTH: Notifies = { down: true, up: true };

export const webhook = defineChannelKind({
  kind: 'webhook',
  label: 'Webhook',
  validateValue: requireHttpUrl,
  spec: {
    store(input) {
      const spec = validateWebhookSpec(input);
      // A side without a URL is a no-op: that status is not sent here (Healthchecks' is_noop).
      return { value: webhookValue(spec), notifies: { down: spec.down.url !== '', up: spec.up.url !== '' } };
    },
    read: webhookSpecFromValue,
    notifies(value) {
      const spec = webhookSpecFromValue(value);
      return spec ? { down: spec.down.url !== '', up: spec.up.url !== '' } : BOTH;
    },
    patch: (value, input) => patchWebhookSpec(webhookSpecFromValue(value), input),
  },
  enabled: (settings) => settings.webhooksEnabled,
  requires: 'WEBHOOKS_ENABLED',
  transport: async () => (await import('./transport.ts')).webhookTransport,
});
