// Delivery end to end, in process: a flip queues its notifications in the same transaction,
// the notifier delivers them to real local receivers, outcomes and retries are stored.
import { describe, expect, it } from 'vitest';
import { createWorld } from '../../helpers/world.ts';
import { startHttpReceiver } from '../../helpers/receivers.ts';
import { useHttpReceiver, useWorldPerTest } from '../../helpers/fixtures.ts';
import { checkWithWebhook, type WebhookChannelValue } from '../../helpers/webhook-check.ts';
import { createChannel } from '../../../src/monitoring/integrations/service.ts';

const receiver = useHttpReceiver({ reset: true });
const w = useWorldPerTest();

const checkWith = (channelValue: WebhookChannelValue, spec?: Record<string, unknown>) => checkWithWebhook(w, channelValue, spec);

const notifications = () => w.app.db.notification.findMany({ orderBy: { id: 'asc' } });

describe('which flips notify', () => {
  it('queues nothing for new → up, one notification for up → down and one for down → up', async () => {
    const { uuid } = await checkWith(`${receiver.url}/hook`);
    await w.ping(`/ping/${uuid}`);
    expect(await notifications()).toHaveLength(0);
    await w.ping(`/ping/${uuid}/fail`);
    await w.ping(`/ping/${uuid}`);
    const rows = await notifications();
    expect(rows.map((n) => [n.reason, n.status, n.state])).toEqual([
      ['flip', 'down', 'pending'],
      ['flip', 'up', 'pending'],
    ]);
    // Written with its flip: each notification points at a stored flip of that status.
    const flips = await w.app.db.flip.findMany({ where: { id: { in: rows.map((n) => n.flipId!) } } });
    expect(flips.map((f) => f.newStatus).sort()).toEqual(['down', 'up']);
  });

  it('queues nothing for pause and resume, for a disabled channel, or for a status the channel does not take', async () => {
    const { uuid, channel } = await checkWith(`${receiver.url}/hook`);
    await w.ping(`/ping/${uuid}`);
    expect((await w.api('POST', `/api/v3/checks/${uuid}/pause`)).status).toBe(200);
    expect((await w.api('POST', `/api/v3/checks/${uuid}/resume`)).status).toBe(200);
    expect(await notifications()).toHaveLength(0);

    await w.app.db.channel.update({ where: { id: channel.id }, data: { disabled: true } });
    await w.ping(`/ping/${uuid}/fail`);
    expect(await notifications()).toHaveLength(0);

    await w.app.db.channel.update({ where: { id: channel.id }, data: { disabled: false, notifyUp: false } });
    await w.ping(`/ping/${uuid}`);
    expect(await notifications()).toHaveLength(0);
    await w.ping(`/ping/${uuid}/fail`);
    expect((await notifications()).map((n) => n.status)).toEqual(['down']);
  });

  it('queues one notification per assigned channel, none for unassigned ones', async () => {
    const a = await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/a` });
    const b = await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/b` });
    await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/unassigned` });
    const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'two', channels: `${a.code},${b.code}` } });
    await w.ping(`/ping/${created.json.uuid}/fail`);
    await w.app.notifier.tick();
    expect(receiver.requests.map((r) => r.path).sort()).toEqual(['/a', '/b']);
  });

  it('notifies when the monitor finds a check overdue, dated at the going-down time', async () => {
    const { uuid } = await checkWith(`${receiver.url}/hook`);
    await w.ping(`/ping/${uuid}`);
    w.clock.advance(121_000);
    await w.app.monitor.tick();
    await w.app.notifier.tick();
    expect(receiver.requests).toHaveLength(1);
    const doc = JSON.parse(receiver.requests[0]!.body);
    expect(doc.flip).toMatchObject({ old_status: 'up', new_status: 'down', reason: 'timeout' });
    // timeout 60 + grace 60 after the ping at T0.
    expect(doc.timestamp).toBe('2026-01-05T10:02:00+00:00');
  });
});

describe('retries', () => {
  it('retries a failed attempt with exponential backoff, then marks it failed with the last error', async () => {
    receiver.respond(500);
    const { uuid } = await checkWith(`${receiver.url}/hook`);
    await w.ping(`/ping/${uuid}/fail`);
    const start = w.clock.now().getTime();
    await w.app.notifier.tick();
    let [n] = await notifications();
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 500' });
    // First retry 5 s later (within 10 s), each delay four times the previous.
    expect(n!.nextAttemptAt.getTime() - start).toBe(5_000);

    // Not before it is due.
    w.clock.advance(4_999);
    await w.app.notifier.tick();
    expect(receiver.requests).toHaveLength(1);

    const delays = [5_000, 20_000, 80_000, 320_000, 1_280_000, 5_120_000];
    w.clock.set(new Date(start));
    for (const [i, delay] of delays.entries()) {
      w.clock.advance(delay);
      await w.app.notifier.tick();
      expect(receiver.requests).toHaveLength(i + 2);
    }
    [n] = await notifications();
    expect(n).toMatchObject({ state: 'failed', attempts: 7, lastError: 'Received status code 500' });
    // At least 5 attempts over at least 10 minutes, as the stored times show.
    expect(n!.lastAttemptAt!.getTime() - n!.createdAt.getTime()).toBeGreaterThan(10 * 60_000);
    w.clock.advance(100 * 3600_000);
    await w.app.notifier.tick();
    expect(receiver.requests).toHaveLength(7);
    // Every attempt carried the same id, so the receiver can drop repeats.
    expect(new Set(receiver.requests.map((r) => r.headers['idempotency-key']))).toEqual(new Set([n!.code]));
  });

  it('delivers on a later attempt once the receiver is back, and sends nothing twice', async () => {
    receiver.respond(503);
    const { uuid } = await checkWith(`${receiver.url}/hook`);
    await w.ping(`/ping/${uuid}/fail`);
    await w.app.notifier.tick();
    receiver.respond(200);
    w.clock.advance(5_000);
    await w.app.notifier.tick();
    w.clock.advance(3600_000);
    await w.app.notifier.tick();
    expect(receiver.requests).toHaveLength(2);
    expect(await notifications()).toMatchObject([{ state: 'sent', attempts: 2, lastError: '' }]);
  });

  it('records a connection failure as the error', async () => {
    const gone = await startHttpReceiver();
    const url = gone.url;
    await gone.close();
    const { uuid } = await checkWith(`${url}/hook`);
    await w.ping(`/ping/${uuid}/fail`);
    await w.app.notifier.tick();
    const [n] = await notifications();
    expect(n!.state).toBe('pending');
    expect(n!.lastError).toMatch(/^Connection failed: ECONNREFUSED/);
  });

  it('does not retry a kind that is not configured, and keeps serving', async () => {
    const disabled = await createWorld({ WEBHOOKS_ENABLED: 'False' });
    try {
      const channel = await createChannel(disabled.app.db, disabled.alice.id, { kind: 'webhook', value: `${receiver.url}/hook` });
      const created = await disabled.api('POST', '/api/v3/checks/', { body: { name: 'x', channels: channel.code } });
      await disabled.ping(`/ping/${created.json.uuid}/fail`);
      await disabled.app.notifier.tick();
      expect(await disabled.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'Webhook notifications are not enabled.' }]);
      expect(receiver.requests).toHaveLength(0);
      expect((await disabled.ping(`/ping/${created.json.uuid}`)).status).toBe(200);
    } finally {
      await disabled.stop();
    }
  });
});

describe('order and concurrency', () => {
  it('sends a check’s down and up to one channel in the order they happened', async () => {
    receiver.hold();
    const { uuid } = await checkWith(`${receiver.url}/hook`);
    await w.ping(`/ping/${uuid}/fail`);
    await w.ping(`/ping/${uuid}`);
    const ticking = w.app.notifier.tick();
    await receiver.waitFor(1);
    // The up waits for the down's answer.
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.requests).toHaveLength(1);
    receiver.release();
    await receiver.waitFor(2);
    receiver.release();
    await ticking;
    expect(receiver.requests.map((r) => JSON.parse(r.body).status)).toEqual(['down', 'up']);
  });

  it('two notifiers on one database deliver each of 60 notifications exactly once', async () => {
    const other = await createWorld({ DATABASE_URL: w.databaseUrl });
    try {
      const channel = await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `${receiver.url}/hook` });
      for (let i = 0; i < 60; i++) {
        const c = await w.api('POST', '/api/v3/checks/', { body: { name: `c${i}`, channels: channel.code } });
        await w.ping(`/ping/${c.json.uuid}/fail`);
      }
      await Promise.all([w.app.notifier.tick(), other.app.notifier.tick()]);
      expect(receiver.requests).toHaveLength(60);
      expect(new Set(receiver.requests.map((r) => r.headers['idempotency-key'])).size).toBe(60);
      expect((await notifications()).every((n) => n.state === 'sent' && n.attempts === 1)).toBe(true);
    } finally {
      await other.stop();
    }
  });
});

describe('metrics', () => {
  it('counts attempts by kind and outcome, the pending backlog and its age, and delivery latency', async () => {
    receiver.respond(500);
    const { uuid } = await checkWith(`${receiver.url}/hook`);
    await w.ping(`/ping/${uuid}/fail`);
    await w.app.notifier.tick();
    w.clock.advance(3_000);
    let text = await (await fetch(`${w.url}/metrics`)).text();
    expect(text).toContain('gateway_notifications_total{kind="webhook",outcome="retry"} 1');
    expect(text).toContain('gateway_notifications_pending 1');
    expect(text).toContain('gateway_notifications_oldest_pending_age_seconds 3');

    receiver.respond(200);
    w.clock.advance(2_000);
    await w.app.notifier.tick();
    text = await (await fetch(`${w.url}/metrics`)).text();
    expect(text).toContain('gateway_notifications_total{kind="webhook",outcome="sent"} 1');
    expect(text).toContain('gateway_notifications_pending 0');
    expect(text).toContain('gateway_notifications_oldest_pending_age_seconds 0');
    // Queued at the flip, delivered 5 s later (the retry): in the 5 s bucket, not the 2.5 s one.
    expect(text).toContain('gateway_notification_delivery_seconds_bucket{le="2.5",kind="webhook"} 0');
    expect(text).toContain('gateway_notification_delivery_seconds_bucket{le="5",kind="webhook"} 1');
  });
});
