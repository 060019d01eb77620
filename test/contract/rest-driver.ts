import type { World } from '../helpers/world.ts';
import type { CheckInput, CheckView, Driver, ErrorCode, Result } from './driver.ts';

const codeByStatus: Record<number, ErrorCode> = { 400: 'VALIDATION', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT' };

function toBody(input: CheckInput) {
  const { manualResume, ...rest } = input;
  return manualResume === undefined ? rest : { ...rest, manual_resume: manualResume };
}

function view(c: any): CheckView {
  return {
    id: c.uuid ?? c.unique_key,
    name: c.name,
    tags: c.tags,
    timeout: c.timeout ?? null,
    grace: c.grace,
    schedule: c.schedule ?? null,
    tz: c.tz ?? null,
    status: c.status,
    started: c.started,
    nPings: c.n_pings,
    manualResume: c.manual_resume,
  };
}

export function restDriver(w: World): Driver {
  async function call<T>(method: string, path: string, key: string, map: (json: any, status: number) => T, body?: unknown): Promise<Result<T>> {
    const res = await w.api(method, path, { key, body });
    if (res.status >= 400) {
      return { ok: false, code: codeByStatus[res.status] ?? ('UNKNOWN' as ErrorCode), message: res.json?.error ?? res.text };
    }
    return { ok: true, value: map(res.json, res.status) };
  }
  return {
    name: 'REST /api/v2',
    createCheck: (key, input) => call('POST', '/api/v2/checks/', key, (j, s) => ({ check: view(j), created: s === 201 }), toBody(input)),
    updateCheck: (key, id, input) => call('POST', `/api/v2/checks/${id}`, key, view, toBody(input)),
    getCheck: (key, id) => call('GET', `/api/v2/checks/${id}`, key, view),
    listChecks: (key, tags = []) => call('GET', `/api/v2/checks/${tags.length ? '?' + tags.map((t) => `tag=${encodeURIComponent(t)}`).join('&') : ''}`, key, (j) => j.checks.map(view)),
    pauseCheck: (key, id) => call('POST', `/api/v2/checks/${id}/pause`, key, view),
    resumeCheck: (key, id) => call('POST', `/api/v2/checks/${id}/resume`, key, view),
    deleteCheck: (key, id) => call('DELETE', `/api/v2/checks/${id}`, key, view),
    flips: (key, id) => call('GET', `/api/v2/checks/${id}/flips/`, key, (j) => j.map((f: any) => ({ up: f.up === 1, at: f.timestamp }))),
  };
}
