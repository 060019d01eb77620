// Trello (Healthchecks' "trello"): a card on a list for each down alert (up sends nothing, as
// Healthchecks' is_noop says). The value is Healthchecks' JSON (the member's token, the board
// and list); the application's key is the operator's TRELLO_APP_KEY, without which the kind is off.
import { defineChannelKind } from '../definition.ts';
import { trelloConf, trelloConfig } from './config.ts';

export const trello = defineChannelKind({
  kind: 'trello',
  label: 'Trello',
  validateValue: (value) => void trelloConf(value),
  config: trelloConfig,
  notifies: () => ({ down: true, up: false }),
  enabled: (settings) => settings.trelloAppKey !== null,
  requires: 'TRELLO_APP_KEY',
  transport: async () => (await import('./transport.ts')).trelloTransport,
});
