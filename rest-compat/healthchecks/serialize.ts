// Healthchecks' JSON shapes: snake_case keys in Healthchecks' emission order. They exist only
// here, in the REST compatibility layer.
import type { CheckRecord } from '../../src/monitoring/checks/service.ts';
import { channelCodes } from '../../src/monitoring/checks/service.ts';
import { checkState } from '../../src/monitoring/checks/derived.ts';
import { hcKindOf } from '../../src/monitoring/integrations/kinds/index.ts';

/** Python's isoformat() of a UTC datetime with microseconds dropped. */
export function isoSeconds(d: Date | null): string | null {
  if (!d) return null;
  return d.toISOString().slice(0, 19) + '+00:00';
}

/** Python's isoformat(): microseconds only when non-zero (we store milliseconds). */
export function isoMicros(d: Date): string {
  const ms = d.getUTCMilliseconds();
  const base = d.toISOString().slice(0, 19);
  return (ms ? `${base}.${String(ms).padStart(3, '0')}000` : base) + '+00:00';
}

export interface SerializeContext {
  siteRoot: string;
  /** The base of `ping_url` (Healthchecks' PING_ENDPOINT, ending in "/"). */
  pingEndpoint: string;
  apiVersion: number;
  readOnly: boolean;
  now: Date;
}

export function checkJson(check: CheckRecord, ctx: SerializeContext): Record<string, unknown> {
  const state = checkState(check, ctx.now);
  const out: Record<string, unknown> = {
    name: check.name,
    slug: check.slug,
    tags: check.tags,
    desc: check.desc,
    grace: check.grace,
    n_pings: check.nPings,
    status: ctx.apiVersion === 1 ? state.statusV1 : state.status,
    started: state.started,
    last_ping: isoSeconds(check.lastPing),
    next_ping: isoSeconds(state.nextPing),
    manual_resume: check.manualResume,
    methods: check.methods,
    subject: check.filterSubject ? check.successKw : '',
    subject_fail: check.filterSubject ? check.failureKw : '',
    start_kw: check.startKw,
    success_kw: check.successKw,
    failure_kw: check.failureKw,
    filter_subject: check.filterSubject,
    filter_body: check.filterBody,
    filter_http_body: check.filterHttpBody,
    filter_default_fail: check.filterDefaultFail,
    badge_url: `${ctx.siteRoot}/b/2/${check.badgeKey}.svg`,
  };
  // Healthchecks: `if self.last_duration:` on the timedelta, then whole seconds. A run of
  // 0.3 s shows 0; only an unknown or zero duration leaves the key out.
  if (check.lastDurationMs) out.last_duration = Math.trunc(check.lastDurationMs / 1000);
  if (ctx.readOnly) {
    out.unique_key = check.uniqueKey;
  } else {
    const updateUrl = `${ctx.siteRoot}/api/v${ctx.apiVersion}/checks/${check.code}`;
    out.uuid = check.code;
    out.ping_url = `${ctx.pingEndpoint}${check.code}`;
    out.update_url = updateUrl;
    out.pause_url = `${updateUrl}/pause`;
    out.resume_url = `${updateUrl}/resume`;
    out.channels = channelCodes(check).join(',');
  }
  if (check.kind === 'simple') {
    out.timeout = check.timeout;
  } else {
    out.schedule = check.schedule;
    out.tz = check.tz;
  }
  return out;
}

export interface PingView {
  n: number;
  kind: string;
  createdAt: Date;
  scheme: string;
  remoteAddr: string | null;
  method: string;
  ua: string;
  rid: string | null;
  hasBody: boolean;
  durationMs: number | null;
}

export function pingJson(ping: PingView, checkCode: string, ctx: Pick<SerializeContext, 'siteRoot' | 'apiVersion'>) {
  const out: Record<string, unknown> = {
    type: ping.kind,
    date: isoMicros(ping.createdAt),
    n: ping.n,
    scheme: ping.scheme,
    remote_addr: ping.remoteAddr,
    method: ping.method,
    ua: ping.ua,
    rid: ping.rid,
    body_url: ping.hasBody ? `${ctx.siteRoot}/api/v${ctx.apiVersion}/checks/${checkCode}/pings/${ping.n}/body` : null,
  };
  if (ping.durationMs !== null) out.duration = Math.round(ping.durationMs / 10) / 100;
  return out;
}

export function flipJson(flip: { createdAt: Date; newStatus: string }) {
  return { timestamp: isoSeconds(flip.createdAt), up: flip.newStatus === 'up' ? 1 : 0 };
}

/** Healthchecks' kind codes: PagerDuty is "pd" there. */
export function channelJson(channel: { code: string; name: string; kind: string }) {
  return { id: channel.code, name: channel.name, kind: hcKindOf(channel.kind) };
}
