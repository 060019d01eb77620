// A flip written inside a transaction and not yet announced: the stores return it, and
// record.ts publishes it once the transaction has committed.
export interface PendingFlip {
  check: { id: number; code: string; projectId: string };
  oldStatus: string;
  newStatus: string;
  at: Date;
  reason: string;
  processed: Date | null;
}
