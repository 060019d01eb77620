// Webhooks end to end: a bare-URL channel posts our JSON document, a spec's side is filled as
// Healthchecks fills it (placeholders, encodings) and sent to a real local receiver.
import { describe, expect, it } from 'vitest';
import { useHttpReceiver, useWorldPerTest } from '../../../../helpers/fixtures.ts';
import { checkWithWebhook, type WebhookChannelValue } from '../../../../helpers/webhook-check.ts';

const receiver = useHttpReceiver({ reset: true });
const w = useWorldPerTest();

const checkWith = (channelValue: WebhookChannelValue, spec?: Record<string, unknown>) => checkWithWebhook(w, channelValue, spec);

const notifications = () => w.app.db.notification.findMany({ orderBy: { id: 'asc' } });

describe('a channel created with a bare URL', () => {
  it('posts a JSON document describing the check as the API does, uuid included, and the flip', async () => {
    const { uuid } = await checkWith(`${receiver.url}/hook`, { tags: 'prod db' });
    await w.ping(`/ping/${uuid}`);
    await w.ping(`/ping/${uuid}/fail`);
    await w.app.notifier.tick();
    const [req] = receiver.requests;
    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toBe('application/json');
    const [stored] = await notifications();
    expect(req!.headers['idempotency-key']).toBe(stored!.code);
    const doc = JSON.parse(req!.body);
    const api = (await w.api('GET', `/api/v3/checks/${uuid}`)).json;
    expect(doc).toMatchObject({ id: stored!.code, event: 'flip', status: 'down', timestamp: '2026-01-05T10:00:00+00:00' });
    expect(doc.check).toEqual(api);
    expect(doc.check.uuid).toBe(uuid);
    expect(doc.flip).toEqual({ old_status: 'up', new_status: 'down', reason: 'fail', timestamp: '2026-01-05T10:00:00+00:00' });
    expect(stored).toMatchObject({ state: 'sent', attempts: 1, lastError: '' });
    expect(stored!.lastAttemptAt).toEqual(stored!.sentAt);
    expect(stored!.sentAt).not.toBeNull();
  });
});

describe('webhook spec', () => {
  it('fills every placeholder as Healthchecks does: URL values encoded, header values Latin-1, $BODY only in bodies', async () => {
    const { uuid } = await checkWith(
      {
        webhook: {
          down: {
            method: 'POST',
            url: `${receiver.url}/down?name=$NAME&tag=$TAG1&now=$NOW&s=$STATUS`,
            body: '{"code":"$CODE","status":"$STATUS","now":"$NOW","name":$NAME_JSON,"slug":"$SLUG","tags":"$TAGS","t1":"$TAG1","t2":"$TAG2","exit":$EXITSTATUS,"body":$BODY_JSON,"raw":"$BODY","json":$JSON}',
            headers: { 'X-Check': '$NAME', 'X-Status': '$STATUS' },
          },
        },
      },
      { name: 'Nightly $TAGS ☃/x', slug: 'nightly', tags: 'prod db' },
    );
    await w.ping(`/ping/${uuid}`);
    await w.ping(`/ping/${uuid}/3`, { method: 'POST', body: 'disk full' });
    await w.app.notifier.tick();
    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0]!;
    // $NAME's own "$TAGS" is not expanded; quote() keeps "/" and encodes the rest.
    expect(req.path).toBe('/down?name=Nightly%20%24TAGS%20%E2%98%83/x&tag=prod&now=2026-01-05T10%3A00%3A00%2B00%3A00&s=down');
    expect(req.headers['x-check']).toBe('Nightly $TAGS &#9731;/x');
    expect(req.headers['x-status']).toBe('down');
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      code: uuid,
      status: 'down',
      now: '2026-01-05T10:00:00+00:00',
      name: 'Nightly $TAGS ☃/x',
      slug: 'nightly',
      tags: 'prod db',
      t1: 'prod',
      t2: 'db',
      exit: 3,
      body: 'disk full',
      raw: 'disk full',
    });
    expect(body.json.uuid).toBe(uuid);
    expect(body.json.name).toBe('Nightly $TAGS ☃/x');
  });

  it('sends nothing for a status without a URL, and GET without a body', async () => {
    const { uuid } = await checkWith({ webhook: { up: { method: 'GET', url: `${receiver.url}/up/$CODE?x=$EXITSTATUS` } } });
    await w.ping(`/ping/${uuid}/fail`);
    expect(await notifications()).toHaveLength(0);
    await w.ping(`/ping/${uuid}`);
    await w.app.notifier.tick();
    expect(receiver.requests.map((r) => [r.method, r.path, r.body])).toEqual([['GET', `/up/${uuid}?x=-1`, '']]);
  });
});
