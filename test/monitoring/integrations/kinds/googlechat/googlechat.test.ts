// Google Chat (Healthchecks' "gchat"): the space's webhook URL a channel takes (always on, as in
// Healthchecks), and the cardsV2 message a local receiver gets through INTEGRATION_BASE_URLS for
// a down and an up alert; failures retried, Retry-After honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { incidentCheck, notificationsOf, refusal } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const HOOK = 'https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t';

let w: World;
beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', SITE_ROOT: 'https://checks.example.org', INTEGRATION_BASE_URLS: JSON.stringify({ gchat: `${receiver.url}/gchat` }) });
});
afterAll(() => w?.stop());

describe('googlechat: the value', () => {
  it('takes a webhook URL, under its name or Healthchecks’ code "gchat"', () => {
    expect(validateChannelInput({ kind: 'googlechat', value: HOOK })).toMatchObject({ kind: 'googlechat', notifyDown: true, notifyUp: true });
    expect(validateChannelInput({ kind: 'gchat', value: HOOK })).toMatchObject({ kind: 'googlechat' });
    expect(refusal(() => validateChannelInput({ kind: 'gchat', value: 'chat.googleapis.com/v1/spaces/AAAA' }))).toBe('value is not a valid http(s) URL');
  });
});

describe('googlechat: the alerts', () => {
  it('posts the card of Healthchecks’ GoogleChat transport for down, then for up with the downtime', async () => {
    const c = await incidentCheck(w, 'googlechat', HOOK, { name: 'Grades <export>', tags: 'prod db' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/gchat/v1/spaces/AAAA/messages?key=k&token=t' });
    expect(down!.headers['content-type']).toBe('application/json');
    const link = `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`;
    const button = { buttonList: { buttons: [{ text: 'View in Campus Checks', type: 'FILLED', onClick: { openLink: { url: link } } }] } };
    expect(JSON.parse(down!.body)).toEqual({
      cardsV2: [
        {
          card: {
            sections: {
              collapsible: true,
              uncollapsibleWidgetsCount: 1,
              widgets: [
                { textParagraph: { text: '🔴 The check <b>Grades &lt;export&gt;</b> is <b>DOWN</b>.\nReason: success signal did not arrive on time, grace time passed.' } },
                { decoratedText: { topLabel: 'Project', text: 'Alice' } },
                { decoratedText: { topLabel: 'Tags', text: 'prod, db' } },
                { decoratedText: { topLabel: 'Period', text: '1 minute' } },
                { decoratedText: { topLabel: 'Total Pings', text: '1' } },
                { decoratedText: { topLabel: 'Last Ping', text: 'Success, 2 minutes ago' } },
                button,
              ],
            },
          },
        },
      ],
    });
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const [, up] = await receiver.waitFor(2);
    const widgets = JSON.parse(up!.body).cardsV2[0].card.sections.widgets;
    expect(widgets[0]).toEqual({ textParagraph: { text: '🟢 The check <b>Grades &lt;export&gt;</b> is now <b>UP</b>.\nThe downtime lasted 38 minutes, 0 seconds.' } });
    expect(widgets.slice(-3)).toEqual([{ decoratedText: { topLabel: 'Total Pings', text: '2' } }, { decoratedText: { topLabel: 'Last Ping', text: 'Success, now' } }, button]);
  });

  it('retries a failure answer (Healthchecks marks none permanent), no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 503, headers: { 'Retry-After': '20' }, body: '' }));
    const c = await incidentCheck(w, 'googlechat', HOOK);
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 503' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(20_000);
  });
});
