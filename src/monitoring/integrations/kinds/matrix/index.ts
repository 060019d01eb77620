// Matrix (Healthchecks' "matrix"): the value is a room id (or alias); messages are sent by the
// operator's bot account (MATRIX_HOMESERVER, MATRIX_USER_ID, MATRIX_ACCESS_TOKEN). Without all
// three the kind is off: deliveries are refused for good, saying why.
import { defineChannelKind } from '../definition.ts';
import { validateMatrixRoom } from './config.ts';

export const matrix = defineChannelKind({
  kind: 'matrix',
  label: 'Matrix',
  validateValue: validateMatrixRoom,
  enabled: (settings) => settings.matrix !== null,
  requires: 'MATRIX_HOMESERVER, MATRIX_USER_ID and MATRIX_ACCESS_TOKEN',
  transport: async () => (await import('./transport.ts')).matrixTransport,
});
