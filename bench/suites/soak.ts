// The soak (`npm run bench -- --soak <minutes>`, issue #30): one server process, monitor and
// notifier on, 10,000 checks, for as long as asked. 1,000 of them kept alive by 200 pings/s;
// 50 flipping all along (the even ones by /fail and success pings, the odd ones going down by
// the monitor 10 s after each success ping), their alerts posted to a webhook receiver in this
// process; 1,000 graphql-ws subscribers (their own process) on the project's flips. Samples the
// server every 10 s; at the end, its memory growth after a warm-up, the event loop's delay, and
// whether any acknowledged ping, flip event or alert was lost.
import Database from 'better-sqlite3';
import type { Figure } from '../lib/report.ts';
import { scrape } from '../lib/metrics.ts';
import { seedChecks, seedProject, type SeededCheck } from '../lib/seed.ts';
import { startServer } from '../lib/server.ts';
import { every, pinger, steadyPings } from '../lib/soak-load.ts';
import { memoryGrowth, startSampler, warmUpMs, type SoakSample } from '../lib/soak-sampler.ts';
import { startSubscribers, type Ready, type Round } from '../lib/subscriber-process.ts';
import { sqliteFilePath } from '../../src/db/adapter.ts';
import { createDb } from '../../src/db/client.ts';
import { createChannel } from '../../src/monitoring/integrations/service.ts';
import { startHttpReceiver } from '../../test/helpers/receivers.ts';
import type { BenchContext } from './context.ts';

const CHECKS = 10_000;
const ALIVE = 1_000;
const FLIPPING = 50;
const SUBSCRIBERS = 1_000;
const PINGS_PER_SECOND = 200;
const SAMPLE_MS = 10_000;
/** Each flipping check goes down and up once per period; the checks' phases are spread over it. */
const FLIP_PERIOD_MS = 30_000;
/** The odd flipping checks: down 10 s after their last ping (timeout + grace), by the monitor. */
const SHORT = { timeout: 5, grace: 5 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

/** Counts in the server's database (read beside it: WAL lets it write meanwhile). */
function counts(databaseUrl: string) {
  const db = new Database(sqliteFilePath(databaseUrl), { readonly: true });
  try {
    const n = (sql: string) => (db.prepare(sql).get() as { n: number | null }).n ?? 0;
    return {
      flips: n('SELECT COUNT(*) AS n FROM "Flip"'),
      unprocessed: n('SELECT COUNT(*) AS n FROM "Flip" WHERE "processed" IS NULL'),
      pings: n('SELECT SUM("nPings") AS n FROM "Check"'),
      notifications: n('SELECT COUNT(*) AS n FROM "Notification"'),
      sent: n('SELECT COUNT(*) AS n FROM "Notification" WHERE "state" = \'sent\''),
      failed: n('SELECT COUNT(*) AS n FROM "Notification" WHERE "state" = \'failed\''),
    };
  } finally {
    db.close();
  }
}

async function webhookTo(databaseUrl: string, projectId: string, url: string, codes: string[]) {
  const prisma = createDb(databaseUrl);
  let channelId: number;
  try {
    channelId = (await createChannel(prisma, projectId, { kind: 'webhook', value: url })).id;
  } finally {
    await prisma.$disconnect();
  }
  const db = new Database(sqliteFilePath(databaseUrl));
  const assign = db.prepare('INSERT INTO "CheckChannel" ("checkId", "channelId") SELECT "id", ? FROM "Check" WHERE "code" = ?');
  db.transaction(() => codes.forEach((code) => assign.run(channelId, code)))();
  db.close();
}

export async function soakSuite(ctx: BenchContext, minutes: number): Promise<Figure[]> {
  const runMs = minutes * 60_000;
  const databaseUrl = await ctx.database('soak');
  const project = await seedProject(databaseUrl);
  const now = Date.now();
  const up: SeededCheck = { status: 'up', lastPing: now, alertAfter: now + (86_400 + 3600) * 1000 };
  // The odd flipping checks start new: a new check never goes down, so none flips before the
  // subscribers listen; their first ping brings them up (a flip too, with no alert).
  const codes = await seedChecks(databaseUrl, project.id, CHECKS, (i) => (i >= ALIVE && i < ALIVE + FLIPPING && (i - ALIVE) % 2 === 1 ? SHORT : i < ALIVE + FLIPPING ? up : {}));
  const alive = codes.slice(0, ALIVE);
  const flipping = codes.slice(ALIVE, ALIVE + FLIPPING);
  const receiver = await startHttpReceiver();
  await webhookTo(databaseUrl, project.id, `${receiver.url}/hook`, flipping);
  const server = await startServer({ databaseUrl, env: {} });
  let subscribers: ReturnType<typeof startSubscribers> | undefined;
  const figures: Figure[] = [];
  try {
    subscribers = startSubscribers({ port: server.port, apiKey: project.api_key, count: SUBSCRIBERS, batch: 500 });
    const ready = await subscribers.next<Ready>(120_000);
    if (ready.failed) throw new Error(`${ready.failed} of ${SUBSCRIBERS} subscribers failed to connect: ${ready.lastError}`);
    for (const deadline = Date.now() + 30_000; (await scrape(server.url))('gateway_subscriptions_active') < SUBSCRIBERS; await sleep(100)) {
      if (Date.now() > deadline) throw new Error(`the server does not hold ${SUBSCRIBERS} subscriptions`);
    }
    const before = counts(databaseUrl);

    const p = pinger(server.url);
    // Progress for a long run: the first sample, then one a minute.
    let printed = -1;
    const sampler = startSampler(server.url, server.child.pid!, SAMPLE_MS, (s: SoakSample) => {
      if (printed >= 0 && Math.floor(s.at / 60_000) === printed) return;
      printed = Math.floor(s.at / 60_000);
      console.log(`  soak ${clock(s.at)}: RSS ${mib(s.rss)}, heap ${mib(s.heap)}, event loop p99 ${s.lagP99Ms.toFixed(1)} ms; pings ${p.counts.acknowledged}/${p.counts.sent}, webhooks ${receiver.requests.length}`);
    });
    const stopSteady = steadyPings(p, alive, PINGS_PER_SECOND);
    // Every half period a flipping check's next step: even checks /fail then a success ping,
    // odd ones a success ping each period (the monitor takes them down in between).
    const HALF = FLIP_PERIOD_MS / 2;
    const done = flipping.map(() => -1);
    const stopFlips = every(100, (elapsed) => {
      flipping.forEach((code, j) => {
        const step = Math.floor((elapsed - (j * FLIP_PERIOD_MS) / FLIPPING) / HALF);
        if (step <= done[j]!) return;
        done[j] = step;
        if (j % 2 === 0) p.ping(`/ping/${code}${step % 2 === 0 ? '/fail' : ''}`);
        else if (step % 2 === 0) p.ping(`/ping/${code}`);
      });
    });
    await sleep(runMs);
    stopSteady();
    stopFlips();
    await p.drain();
    const samples = await sampler.stop();
    const loadMs = samples.at(-1)!.at;

    // Quiet: the odd checks go down within timeout + grace + a monitor pass; then every flip is
    // processed and every alert out, or a minute has passed.
    const stoppedAt = Date.now();
    let after = counts(databaseUrl);
    for (let stable = 0; Date.now() - stoppedAt < 60_000; await sleep(1000)) {
      const next = counts(databaseUrl);
      stable = next.flips === after.flips ? stable + 1 : 0;
      after = next;
      const quiet = Date.now() - stoppedAt > (SHORT.timeout + SHORT.grace + 2) * 1000 && stable >= 2 && after.unprocessed === 0;
      if (quiet && after.sent + after.failed === after.notifications && new Set(receiver.requests.map((r) => r.headers['idempotency-key'])).size >= after.sent) break;
    }
    const flips = after.flips - before.flips;
    if (flips > 0) subscribers.send({ expect: flips, sentAt: Date.now(), timeoutMs: 30_000 });
    const round = flips > 0 ? await subscribers.next<Round>(60_000) : undefined;

    const warmUp = warmUpMs(loadMs);
    const { first, last, growthPct, heapGrowthPct } = memoryGrowth(samples, warmUp);
    const worst = samples.reduce((w, s) => (s.lagP99Ms > w.lagP99Ms ? s : w));
    const keys = receiver.requests.map((r) => r.headers['idempotency-key']);
    const received = new Set(keys).size;
    const { sent, acknowledged, failed, lastError } = p.counts;
    const stored = after.pings - before.pings;
    const suite = 'soak';
    figures.push(
      { suite, name: 'server RSS after the warm-up', value: first.rss / 2 ** 20, unit: 'MiB', note: `at ${clock(first.at)} (${warmUp ? `warm-up ${clock(warmUp)}` : 'a short run: its first sample'}); heap used ${mib(first.heap)}` },
      { suite, name: 'server RSS at the end', value: last.rss / 2 ** 20, unit: 'MiB', note: `at ${clock(last.at)}; heap used ${mib(last.heap)}; ${samples.length} samples, max RSS ${mib(Math.max(...samples.map((s) => s.rss)))}` },
      {
        suite,
        name: `RSS growth over ${minutes} min after the warm-up`,
        value: growthPct,
        unit: '%',
        target: '< 5%',
        met: growthPct < 5,
        note: `heap used ${heapGrowthPct >= 0 ? '+' : ''}${heapGrowthPct.toFixed(1)}% (no forced GC); ${CHECKS.toLocaleString('en-US')} checks, ${PINGS_PER_SECOND} pings/s over ${ALIVE.toLocaleString('en-US')}, ${FLIPPING} flipping, ${SUBSCRIBERS.toLocaleString('en-US')} subscribers`,
      },
      { suite, name: 'event-loop delay p99, worst 10 s sample', value: worst.lagP99Ms, unit: 'ms', note: `at ${clock(worst.at)}; max delay seen ${Math.max(...samples.map((s) => s.lagMaxMs)).toFixed(1)} ms; median sample p99 ${[...samples.map((s) => s.lagP99Ms)].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!.toFixed(1)} ms` },
      {
        suite,
        name: 'pings lost (sent − stored)',
        value: sent - stored,
        unit: 'pings',
        target: '0',
        met: sent === acknowledged && acknowledged === stored,
        correctness: true,
        note: `sent ${sent.toLocaleString('en-US')} (${(sent / (loadMs / 1000)).toFixed(0)}/s), acknowledged ${acknowledged.toLocaleString('en-US')}, stored ${stored.toLocaleString('en-US')}${failed ? `; ${failed} failed: ${lastError}` : ''}`,
      },
      {
        suite,
        name: 'flip events missed',
        value: round ? round.missed : 0,
        unit: 'subscribers',
        target: '0',
        met: !round || (round.missed === 0 && round.extra === 0 && round.errors === 0),
        correctness: true,
        note: `${flips.toLocaleString('en-US')} flips recorded; ${round ? `${round.count.toLocaleString('en-US')} of ${SUBSCRIBERS.toLocaleString('en-US')} subscribers received all of them, ${round.extra} events extra, ${round.errors} errors, ${round.closed} sockets closed${round.lastError ? `; ${round.lastError}` : ''}` : 'none to receive'}`,
      },
      {
        suite,
        name: 'alerts lost',
        value: after.notifications - received,
        unit: 'webhooks',
        target: '0',
        met: received === after.notifications && keys.length === received,
        correctness: true,
        note: `${after.notifications.toLocaleString('en-US')} notifications queued (${after.sent} sent, ${after.failed} failed), ${received.toLocaleString('en-US')} received, ${keys.length - received} twice`,
      },
    );
  } finally {
    await subscribers?.stop();
    await server.stop();
    await receiver.close();
  }
  return figures;
}
