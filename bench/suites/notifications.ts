// Notifications: how soon a flip reaches a webhook receiver, how long 1,000 checks going down
// at one instant take to reach it (none twice), and email pings per second over SMTP. All
// against the real server process; the receiver and the mail client live in this process.
import type net from 'node:net';
import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { Figure } from '../lib/report.ts';
import { seedChecks, seedProject } from '../lib/seed.ts';
import { startServer } from '../lib/server.ts';
import { createDb } from '../../src/db/client.ts';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import { createChannel } from '../../src/monitoring/integrations/service.ts';
import { startHttpReceiver } from '../../test/helpers/receivers.ts';
import type { BenchContext } from './context.ts';
import { freePort } from '../lib/free-port.ts';

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

async function seedChannel(databaseUrl: string, projectId: string, url: string): Promise<number> {
  const db = createDb(databaseUrl);
  try {
    return (await createChannel(db, projectId, { kind: 'webhook', value: url })).id;
  } finally {
    await db.$disconnect();
  }
}

function assignAll(databaseUrl: string, channelId: number) {
  const db = new Database(sqliteFilePath(databaseUrl));
  db.prepare('INSERT INTO "CheckChannel" ("checkId", "channelId") SELECT "id", ? FROM "Check"').run(channelId);
  db.close();
}

async function flipLatency(ctx: BenchContext): Promise<Figure[]> {
  const flips = ctx.smoke ? 20 : 300;
  const receiver = await startHttpReceiver();
  const databaseUrl = await ctx.database('notify-latency');
  const project = await seedProject(databaseUrl);
  const codes = await seedChecks(databaseUrl, project.id, flips, () => ({ status: 'up', lastPing: Date.now(), alertAfter: Date.now() + 86_400_000 }));
  assignAll(databaseUrl, await seedChannel(databaseUrl, project.id, `${receiver.url}/hook`));
  const server = await startServer({ databaseUrl, env: {} });
  const latencies: number[] = [];
  try {
    for (const [i, code] of codes.entries()) {
      const sent = Date.now();
      await (await fetch(`${server.url}/ping/${code}/fail`)).text();
      const [req] = (await receiver.waitFor(i + 1, 10_000)).slice(i);
      latencies.push(req!.at - sent);
    }
  } finally {
    await server.stop();
    await receiver.close();
  }
  latencies.sort((a, b) => a - b);
  const p99 = quantile(latencies, 0.99);
  return [
    {
      suite: 'notifications',
      name: `flip → webhook received, ${flips} flips one after another`,
      value: p99,
      unit: 'ms p99',
      target: 'p99 < 1 s',
      met: p99 < 1000,
      note: `p50 ${quantile(latencies, 0.5)} ms, max ${latencies.at(-1)} ms (from sending the /fail ping)`,
    },
  ];
}

async function burst(ctx: BenchContext): Promise<Figure[]> {
  const checks = ctx.smoke ? 200 : 1000;
  const receiver = await startHttpReceiver();
  const databaseUrl = await ctx.database('notify-burst');
  const project = await seedProject(databaseUrl);
  const goesDown = Date.now() + 5_000;
  await seedChecks(databaseUrl, project.id, checks, () => ({ status: 'up', lastPing: goesDown - 120_000, timeout: 60, grace: 60, alertAfter: goesDown }));
  assignAll(databaseUrl, await seedChannel(databaseUrl, project.id, `${receiver.url}/hook`));
  const server = await startServer({ databaseUrl, env: { MONITOR_INTERVAL_MS: '100' } });
  let allMs = NaN;
  try {
    await receiver.waitFor(checks, 60_000).catch(() => undefined);
    allMs = Math.max(...receiver.requests.map((r) => r.at)) - goesDown;
    // Anything sent twice would arrive in the next moments.
    await new Promise((r) => setTimeout(r, ctx.smoke ? 200 : 1000));
  } finally {
    await server.stop();
    await receiver.close();
  }
  const ids = receiver.requests.map((r) => r.headers['idempotency-key']);
  const duplicates = ids.length - new Set(ids).size;
  return [
    {
      suite: 'notifications',
      name: `${checks.toLocaleString('en-US')} checks down at one instant → all webhooks received`,
      value: allMs,
      unit: 'ms',
      target: '< 10 s',
      met: allMs < 10_000,
      note: `from the going-down time; ${receiver.requests.length} requests`,
    },
    { suite: 'notifications', name: 'webhooks not received', value: checks - new Set(ids).size, unit: 'notifications', target: '0', met: new Set(ids).size === checks, correctness: true },
    { suite: 'notifications', name: 'webhooks received twice', value: duplicates, unit: 'notifications', target: '0', met: duplicates === 0, correctness: true },
  ];
}

/** Sends `count` mails over `connections` pooled SMTP connections; returns messages per second. */
async function sendMails(port: number, count: number, to: (i: number) => string): Promise<number> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: 8, maxMessages: Infinity });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const i = next++;
        await transport.sendMail({ from: 'cron@school.example', to: to(i), subject: `backup ${i} OK`, text: `run ${i} finished` });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  return count / seconds;
}

async function emailPings(ctx: BenchContext): Promise<Figure[]> {
  const mails = ctx.smoke ? 200 : 5000;
  // Ceiling: the same client against an SMTP server that only receives (smtp-server, no database).
  const sink = new SMTPServer({ authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false, onData: (s, _x, cb) => s.on('data', () => undefined).on('end', () => cb()) });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
  const sinkRate = await sendMails((sink.server.address() as net.AddressInfo).port, mails, (i) => `${i}@sink.example`);
  await new Promise<void>((r) => sink.close(() => r()));

  const databaseUrl = await ctx.database('email-pings');
  const project = await seedProject(databaseUrl);
  const codes = await seedChecks(databaseUrl, project.id, 100);
  const smtpPort = await freePort();
  const server = await startServer({ databaseUrl, env: { SMTPD_PORT: String(smtpPort), PING_EMAIL_DOMAIN: 'hc.example.org' } });
  let rate: number;
  try {
    rate = await sendMails(smtpPort, mails, (i) => `${codes[i % codes.length]}@hc.example.org`);
  } finally {
    await server.stop();
  }
  const db = new Database(sqliteFilePath(databaseUrl), { readonly: true });
  const stored = (db.prepare('SELECT COUNT(*) AS n FROM "Ping" WHERE "scheme" = \'email\'').get() as { n: number }).n;
  db.close();
  return [
    {
      suite: 'notifications',
      name: 'email pings over SMTP (8 connections)',
      value: rate,
      unit: 'pings/s',
      ratioTo: { name: 'a receive-only SMTP server', value: sinkRate },
      note: `${mails} messages to 100 checks`,
    },
    { suite: 'notifications', name: 'acknowledged email pings not stored', value: mails - stored, unit: 'pings', target: '0', met: stored === mails, correctness: true },
  ];
}

export async function notificationsSuite(ctx: BenchContext): Promise<Figure[]> {
  return [...(await flipLatency(ctx)), ...(await burst(ctx)), ...(await emailPings(ctx))];
}
