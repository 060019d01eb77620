// The fuzz harness itself: the snapshot sees a write (so "no change on 4xx" can fail) and
// checkRequest fails on a 4xx that wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRequest, fuzzWorld, type FuzzWorld } from './harness.ts';

let fw: FuzzWorld;
beforeAll(async () => {
  fw = await fuzzWorld();
});
afterAll(() => fw?.close());

describe('the fuzz harness', () => {
  it('sees an insert and an update in the snapshot, and nothing after a read', async () => {
    const empty = fw.snapshot();
    const created = await fw.w.api('POST', '/api/v3/checks/', { body: { name: 'a' } });
    const inserted = fw.snapshot();
    expect(inserted.Check).not.toBe(empty.Check);
    await fw.w.api('POST', `/api/v3/checks/${created.json.uuid}`, { body: { desc: 'changed' } });
    const updated = fw.snapshot();
    expect(updated.Check).not.toBe(inserted.Check);
    await fw.w.api('GET', '/api/v3/checks/');
    expect(fw.snapshot()).toEqual(updated);
  });

  it('accepts a 2xx that writes and fails a 4xx whose snapshot changed', async () => {
    const ok = await checkRequest(fw, { method: 'POST', path: '/api/v3/checks/', headers: { 'X-Api-Key': fw.w.alice.api_key, 'Content-Type': 'application/json' }, body: Buffer.from('{"name":"b"}') });
    expect(ok.status).toBe(201);
    // A snapshot that differs on every call stands in for a 4xx with a side effect.
    let n = 0;
    const changing: FuzzWorld = { ...fw, snapshot: () => ({ Check: String(n++) }) };
    await expect(checkRequest(changing, { method: 'GET', path: '/api/v3/checks/nope', headers: {} })).rejects.toThrow(/404 changed state/);
  });
});
