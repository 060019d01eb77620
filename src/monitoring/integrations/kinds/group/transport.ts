// A group is never sent to itself: its alerts are queued for its members (recipients.ts) and a
// test tests each member (testChannel). A row for the group itself can only come from a path
// that queued it unexpanded; it fails for good, saying so, rather than reach nobody silently.
import { DeliveryError, type Transport } from '../shared/transport.ts';

export const groupTransport: Transport = {
  async send() {
    throw new DeliveryError('A group is notified through its member channels, each with a notification of its own', true);
  },
};
