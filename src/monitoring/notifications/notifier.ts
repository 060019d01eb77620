// The notifier: workers in the server process that deliver the outbox. It claims due
// notifications (atomically, so several instances can share one database), sends each through
// its kind's transport with a time limit, and records the outcome: sent, retried later with
// backoff, or failed with the last error. A flip in this process wakes it at once; otherwise
// it looks for due work (retries, other instances' flips, rows left by a killed process) at
// least every `pollMs`. Notifications to the same channel about the same check go out one
// after another, in the order they were queued.
import type { Logger } from 'pino';
import type { Clock } from '../../shared/clock.ts';
import { internalListener, type FlipEvent, type MonitoringEvents } from '../../events/bus.ts';
import { loadDeliveries, type DeliverySource } from './deliveries.ts';
import { nextAttemptAfter, withRetryAfter, type RetryPolicy } from './retry.ts';
import type { ClaimedNotification, NotificationStore } from './store.ts';
import { loadTransports, transportFor } from '../integrations/kinds/index.ts';
import { DeliveryError, type Delivery } from '../integrations/kinds/shared/transport.ts';
import { flipNotifies, type NewNotification } from './outbox.ts';
import { runNagPass } from './nag.ts';
import { isAccountMail, loadPreparedMail, sendPreparedMail, type PreparedMail } from './prepared-mail.ts';
import { pruneNotifications } from './prune.ts';
import type { DatabasePort } from '../../db/port.ts';

export interface NotifierOptions {
  store: NotificationStore;
  /** Which store errors mean another process holds the database (tried again). */
  database: Pick<DatabasePort, 'isBusy'>;
  source: DeliverySource;
  events: MonitoringEvents;
  clock: Clock;
  retry: RetryPolicy;
  /** Deliveries in flight at once. */
  concurrency: number;
  /** Longest sleep between looks at the outbox. */
  pollMs: number;
  /** Sent and failed notifications are deleted after this many days. */
  keepDays: number;
  log?: Logger;
}

/** What a claimed row sends: a channel's delivery, or account mail (a report or nag); null: its target is gone. */
type Job = { delivery: Delivery; mail?: undefined } | { mail: PreparedMail; delivery?: undefined } | null;

export interface DeliveryOutcome {
  state: 'sent' | 'pending' | 'failed';
  error: string;
  attempt: number;
  durationMs: number;
  nextAttemptAt: Date | null;
}

export class Notifier {
  #active = new Set<Promise<void>>();
  /** The last delivery queued per (channel, check): the next one for that pair waits for it. */
  #tails = new Map<string, Promise<unknown>>();
  #timer: NodeJS.Timeout | undefined;
  /** The background loop is not running (tests drive the notifier with tick()). */
  #stopped = true;
  /** stop() was called: claimed rows not yet started are given back, nothing new is claimed. */
  #shuttingDown = false;
  #pumping: Promise<void> | null = null;
  #again = false;
  #lastNagPass = -Infinity;
  #lastPrune = -Infinity;

  constructor(private o: NotifierOptions) {}

  /** One attempt may take this long in all (the transport's own limit applies per step). */
  get deadlineMs() {
    return this.o.source.settings.timeoutMs * 2;
  }

  /** A claim (renewed when the attempt starts) outlives the attempt's deadline. */
  get leaseMs() {
    return this.deadlineMs + this.o.source.settings.timeoutMs + 2_000;
  }

  start() {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#shuttingDown = false;
    this.o.events.on('flip', this.#onFlip);
    void this.#pump();
  }

  /** Stops claiming; attempts under way finish, queued ones are given back untried. */
  async stop() {
    this.#stopped = true;
    this.#shuttingDown = true;
    this.o.events.off('flip', this.#onFlip);
    if (this.#timer) clearTimeout(this.#timer);
    await this.#pumping;
    await Promise.allSettled([...this.#active]);
  }

  /** Delivers everything due now, then resolves (tests drive the notifier this way). */
  async tick(): Promise<void> {
    await this.#nagPass(true);
    for (;;) {
      const started = await this.#claimAndStart();
      if (started === 0 && this.#active.size === 0) return;
      await Promise.allSettled([...this.#active]);
    }
  }

  /** Sends one notification now and waits for its outcome (channel tests; no retry). */
  async sendNow(n: NewNotification): Promise<DeliveryOutcome> {
    await loadTransports();
    const now = this.o.clock.now();
    const claimed = await this.o.store.insertClaimed(n, new Date(now.getTime() + this.leaseMs));
    let delivery: Delivery | null;
    try {
      [delivery = null] = await loadDeliveries(this.o.source, [claimed]);
    } catch (err) {
      // Recorded as failed, so the background notifier does not send it later.
      await this.#write(() => this.o.store.markFailed({ id: claimed.id, attempt: 1, durationMs: 0, at: now }, 'Could not prepare the message'));
      throw err;
    }
    return this.#deliver(claimed, delivery && { delivery }, { renewLease: false });
  }

  #onFlip = internalListener((flip: FlipEvent) => {
    // A flip that notifies nobody (a first ping's new → up, a pause) queued nothing: no look
    // at the outbox for it. The others' notifications are committed before the event.
    if (!flipNotifies(flip.oldStatus, flip.newStatus)) return;
    void this.#pump();
  });

  #pump(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#pumping) {
      this.#again = true;
      return this.#pumping;
    }
    this.#pumping = (async () => {
      try {
        await this.#nagPass(false);
        do {
          this.#again = false;
          await this.#claimAndStart();
        } while (this.#again && !this.#stopped);
      } catch (err) {
        this.o.log?.error({ err }, 'notifier could not claim notifications');
      }
      await this.#scheduleNext();
    })().finally(() => {
      this.#pumping = null;
    });
    return this.#pumping;
  }

  async #scheduleNext() {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    // At capacity every finished delivery looks again: a timer would only spin on the backlog.
    if (this.#active.size >= this.o.concurrency) return;
    const now = this.o.clock.now().getTime();
    let at = now + this.o.pollMs;
    try {
      const due = await this.o.store.nextDueAt();
      if (due) at = Math.min(at, due.getTime());
    } catch (err) {
      this.o.log?.error({ err }, 'notifier could not read the next due time');
    }
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#pump(), Math.max(MIN_SLEEP_MS, at - now));
  }

  async #nagPass(force: boolean) {
    // Reminders are minutes apart: one look per second is plenty.
    const now = this.o.clock.now();
    if (!force && now.getTime() - this.#lastNagPass < 1000) return;
    this.#lastNagPass = now.getTime();
    try {
      const queued = await runNagPass(this.o.source.db, now);
      if (queued) this.#again = true;
    } catch (err) {
      this.o.log?.error({ err }, 'repeat-alert pass failed');
    }
    if (now.getTime() - this.#lastPrune >= 3600_000) {
      this.#lastPrune = now.getTime();
      await pruneNotifications(this.o.source.db, new Date(now.getTime() - this.o.keepDays * 86_400_000)).catch((err) =>
        this.o.log?.error({ err }, 'pruning old notifications failed'),
      );
    }
  }

  /** Claims as many due notifications as there is room for and starts them; returns how many. */
  async #claimAndStart(): Promise<number> {
    // Before the first claim: a lease must not run out while a transport's module loads.
    await loadTransports();
    let started = 0;
    while (this.#active.size < this.o.concurrency && !this.#shuttingDown) {
      const now = this.o.clock.now();
      const room = this.o.concurrency - this.#active.size;
      const batch = await this.o.store.claimDue(now, room, new Date(now.getTime() + this.leaseMs));
      if (batch.length === 0) break;
      if (this.#shuttingDown) {
        // Stopped while claiming: give the rows back rather than send after shutdown.
        await this.o.store.release(batch, now);
        break;
      }
      const jobs = await this.#load(batch);
      batch.forEach((n, i) => this.#start(n, jobs[i] ?? null));
      started += batch.length;
      if (batch.length < room) break;
    }
    return started;
  }

  /** The jobs of a claimed batch, in its order: channel deliveries and account mail, each loaded in one go. */
  async #load(batch: ClaimedNotification[]): Promise<Job[]> {
    const mailRows = batch.filter(isAccountMail);
    const channelRows = batch.filter((n) => !isAccountMail(n));
    const [deliveries, mails] = await Promise.all([loadDeliveries(this.o.source, channelRows), loadPreparedMail(this.o.source.db, mailRows)]);
    const jobs = new Map<ClaimedNotification, Job>();
    channelRows.forEach((n, i) => jobs.set(n, deliveries[i] ? { delivery: deliveries[i] } : null));
    mailRows.forEach((n, i) => jobs.set(n, mails[i] ? { mail: mails[i] } : null));
    return batch.map((n) => jobs.get(n) ?? null);
  }

  #start(n: ClaimedNotification, job: Job) {
    // Account mail to one person goes out in queue order too (a report before the nag queued after it).
    const key = n.channelId === null ? `person:${n.personId}` : `${n.channelId}:${n.checkId}`;
    const previous = this.#tails.get(key);
    const run = (previous ? previous.catch(() => undefined) : Promise.resolve()).then(() => this.#deliver(n, job, { renewLease: true }));
    this.#tails.set(key, run);
    const done: Promise<void> = run.then(
      () => undefined,
      (err) => this.o.log?.error({ err, notification: n.code }, 'delivery bookkeeping failed'),
    );
    this.#active.add(done);
    void done.finally(() => {
      this.#active.delete(done);
      if (this.#tails.get(key) === run) this.#tails.delete(key);
      // Room for more: look again (also picks up work that arrived meanwhile).
      if (!this.#stopped) void this.#pump();
    });
  }

  /** A store write, tried again while another process holds the database. */
  async #write<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (err) {
        if (!this.o.database.isBusy(err) || attempt >= 3) throw err;
      }
    }
  }

  async #deliver(n: ClaimedNotification, job: Job, o: { renewLease: boolean }): Promise<DeliveryOutcome> {
    const delivery = job?.delivery ?? null;
    const skipped: DeliveryOutcome = { state: 'pending', error: '', attempt: n.attempt, durationMs: 0, nextAttemptAt: null };
    if (o.renewLease) {
      const now = this.o.clock.now();
      // Waited behind another delivery through shutdown: give it back untried.
      if (this.#shuttingDown) {
        await this.#write(() => this.o.store.release([n], now));
        return skipped;
      }
      // The lease may have run out while this waited: only the attempt that still holds it sends.
      if (!(await this.#write(() => this.o.store.startAttempt(n.id, n.attempt, new Date(now.getTime() + this.leaseMs))))) return skipped;
    }
    const started = performance.now();
    let error: DeliveryError | null = null;
    if (!job) {
      error = new DeliveryError(isAccountMail(n) ? 'The account no longer exists' : 'The channel or check no longer exists', true);
    } else if (n.attempt > this.o.retry.maxAttempts) {
      // Claimed again and again without an outcome: the process stopped during every attempt.
      error = new DeliveryError(`Gave up after ${n.attempt - 1} attempts without an outcome`, true);
    } else if (delivery?.channel.disabled && n.reason !== 'test') {
      error = new DeliveryError('The channel is disabled', true);
    } else {
      try {
        if (job.mail) {
          await withDeadline(sendPreparedMail(this.o.source.settings, n.code, job.mail), this.deadlineMs);
        } else {
          // The kind's registry refuses an unknown kind and one the operator switched off.
          const transport = await transportFor(job.delivery);
          await withDeadline(transport.send(job.delivery), this.deadlineMs);
        }
      } catch (err) {
        error = err instanceof DeliveryError ? err : new DeliveryError(`Unexpected error: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    const at = this.o.clock.now();
    const attempt = { id: n.id, attempt: n.attempt, durationMs: Math.round(performance.now() - started), at };
    let outcome: DeliveryOutcome;
    let recorded: boolean;
    if (!error) {
      recorded = await this.#write(() => this.o.store.markSent(attempt));
      outcome = { state: 'sent', error: '', attempt: n.attempt, durationMs: attempt.durationMs, nextAttemptAt: null };
    } else {
      // Tests are not retried (Healthchecks neither): the operator is waiting for the answer.
      const next = error.permanent || n.reason === 'test' ? null : withRetryAfter(nextAttemptAfter(this.o.retry, n.attempt, at), at, error.retryAfterMs);
      recorded = await this.#write(() => (next ? this.o.store.markRetry(attempt, next, error.message) : this.o.store.markFailed(attempt, error.message)));
      outcome = { state: next ? 'pending' : 'failed', error: error.message, attempt: n.attempt, durationMs: attempt.durationMs, nextAttemptAt: next };
      this.o.log?.warn({ notification: n.code, attempt: n.attempt, error: error.message, retryAt: next }, 'notification attempt failed');
    }
    // Not recorded: superseded by a later alert, or taken over by another worker meanwhile.
    // Account mail belongs to no channel or project: it is not a channel's notification event.
    if (delivery && recorded) {
      this.o.events.emit('notification', {
        projectId: delivery.channel.projectId,
        channelId: delivery.channel.id,
        kind: delivery.channel.kind,
        checkId: n.checkId,
        notificationId: n.id,
        code: n.code,
        reason: delivery.reason,
        status: n.status,
        state: outcome.state,
        attempt: n.attempt,
        error: outcome.error,
        queuedAt: n.createdAt,
        at,
      });
    }
    return outcome;
  }

}

const MIN_SLEEP_MS = 10;

/** The attempt's overall time limit: a transport's own timeouts apply per step, not in all. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError(`Timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
