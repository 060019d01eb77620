// Domain events, published after the write that caused them has committed, exactly once.
// Transports (GraphQL subscriptions) listen; they never publish.
import { EventEmitter } from 'node:events';

export interface FlipEvent {
  checkId: number;
  checkCode: string;
  projectId: string;
  oldStatus: string;
  newStatus: string;
  at: Date;
  reason: string;
}

export interface MonitoringEventMap {
  flip: [FlipEvent];
}

export class MonitoringEvents extends EventEmitter<MonitoringEventMap> {
  constructor() {
    super();
    // Many subscribers (one per live subscription) are expected.
    this.setMaxListeners(0);
  }
}
