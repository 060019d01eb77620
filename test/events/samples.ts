// Payloads as the domain publishes them: a check row, a ping row (body bytes or null), a flip.
import type { Check, Ping } from '../../src/generated/prisma/client.ts';
import type { FlipEvent } from '../../src/events/bus.ts';

export const sampleCheck: Check = {
  id: 7, code: '5f0c8d52-2d39-4c9e-9f7e-6f1c2a0b9d11', uniqueKey: 'u', badgeKey: 'b', projectId: 'p1', name: 'backup',
  slug: 'backup', tags: 'prod db', desc: '', kind: 'cron', timeout: 86400, grace: 3600, schedule: '0 3 * * *', tz: 'Europe/Riga',
  methods: '', manualResume: false, startKw: '', successKw: '', failureKw: '', filterSubject: false, filterBody: false,
  filterHttpBody: false, filterDefaultFail: false, status: 'up', nPings: 3, lastPing: new Date('2026-01-05T10:00:00.123Z'),
  lastStart: null, lastStartRid: null, lastDurationMs: null, alertAfter: new Date('2026-01-06T04:00:00Z'), createdAt: new Date('2025-12-31T23:59:59.999Z'),
};

export const samplePing = (body: Uint8Array | null): Ping => ({
  id: 11, checkId: 7, n: 3, createdAt: new Date('2026-01-05T10:00:00.123Z'), kind: 'success', scheme: 'https', remoteAddr: '203.0.113.9',
  method: 'POST', ua: 'curl/8', rid: null, exitStatus: 0, body: body as Ping['body'],
});

export const sampleFlip: FlipEvent = { checkId: 7, checkCode: sampleCheck.code, projectId: 'p1', oldStatus: 'up', newStatus: 'down', at: new Date('2026-01-06T04:00:00Z'), reason: 'timeout' };
