// Microsoft Teams (Workflows webhooks, Healthchecks' "msteamsw"): the workflow URL a channel
// takes, MSTEAMS_ENABLED, and the Adaptive Card a local receiver gets through
// INTEGRATION_BASE_URLS for a down and an up alert; failures retried, Retry-After honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../../helpers/world.ts';
import { useHttpReceiver } from '../../../../helpers/fixtures.ts';
import { validateChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { hookKindContract, incidentCheck, notificationsOf } from '../helpers.ts';

const receiver = useHttpReceiver({ reset: true });
const HOOK = 'https://prod-01.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=s';

hookKindContract('msteams', { label: 'MS Teams', switch: 'MSTEAMS_ENABLED', notAUrl: 'logic.azure.com/workflows/abc', receiver });

let w: World;
beforeAll(async () => {
  w = await createWorld({ SITE_NAME: 'Campus Checks', SITE_ROOT: 'https://checks.example.org', INTEGRATION_BASE_URLS: JSON.stringify({ msteamsw: `${receiver.url}/teams` }) });
});
afterAll(() => w?.stop());

describe('msteams: the alerts', () => {
  it('takes Healthchecks’ code "msteamsw" as well as its name', () => {
    expect(validateChannelInput({ kind: 'msteamsw', value: HOOK })).toMatchObject({ kind: 'msteams' });
  });

  it('posts the Adaptive Card of Healthchecks’ MsTeamsWorkflow for down, then for up', async () => {
    const c = await incidentCheck(w, 'msteams', HOOK, { name: 'Grades & export', tags: 'prod db', desc: 'Nightly\nexport' });
    await c.down();
    const [down] = await receiver.waitFor(1);
    expect(down).toMatchObject({ method: 'POST', path: '/teams/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=s' });
    expect(down!.headers['content-type']).toBe('application/json');
    const link = `https://checks.example.org/?project=${w.alice.id}#/checks/${c.uniqueKey}`;
    expect(JSON.parse(down!.body)).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            fallbackText: '“Grades &amp; export” is DOWN.',
            version: '1.2',
            body: [
              {
                type: 'TextBlock',
                text: '🔴 “Grades &amp; export” is DOWN (success signal did not arrive on time, grace time passed).',
                weight: 'bolder',
                size: 'medium',
                wrap: true,
                style: 'heading',
              },
              {
                type: 'FactSet',
                facts: [
                  { title: 'Description:', value: 'Nightly\n\nexport' },
                  { title: 'Project:', value: 'Alice' },
                  { title: 'Tags:', value: 'prod db' },
                  { title: 'Period:', value: '1 minute' },
                  { title: 'Total Pings:', value: '1' },
                  { title: 'Last Ping:', value: 'Success, 2 minutes ago' },
                ],
              },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'View in Campus Checks', url: link }],
          },
        },
      ],
    });
    expect(down!.body).not.toContain(c.uuid);

    await c.up();
    const [, up] = await receiver.waitFor(2);
    const card = JSON.parse(up!.body).attachments[0].content;
    expect(card.fallbackText).toBe('“Grades &amp; export” is UP.');
    expect(card.body[0].text).toBe('🟢 “Grades &amp; export” is UP.');
    expect(card.body[1].facts.slice(-2)).toEqual([
      { title: 'Total Pings:', value: '2' },
      { title: 'Last Ping:', value: 'Success, now' },
    ]);
  });

  it('retries a failure answer (Healthchecks marks none permanent), no sooner than its Retry-After', async () => {
    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '30' }, body: '' }));
    const c = await incidentCheck(w, 'msteams', HOOK);
    await c.down();
    const [n] = await notificationsOf(w, c.channel.id);
    expect(n).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Received status code 429' });
    expect(n!.nextAttemptAt.getTime() - n!.lastAttemptAt!.getTime()).toBe(30_000);
  });
});
