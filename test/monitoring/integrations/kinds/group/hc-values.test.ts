// The values Healthchecks stores for shell, group, github and trello, as its forms write them (json.dumps with sorted keys, ",".join of UUIDs): the
// importer takes each as it is, enabled, with the statuses Healthchecks would send.
import { describe, expect, it } from 'vitest';
import { mapChannel } from '../../../../../src/drop-in/healthchecks/channels.ts';

const hc = (kind: string, value: string) => mapChannel({ pk: 1, code: '8d1c2b3a-0000-4000-8000-000000000001', project: 1, name: 'ops', created: new Date(0), kind, value, disabled: false, emailVerified: true, checks: [] });

describe('Healthchecks’ stored values of shell, group, github and trello', () => {
  it('are imported as they are, sending what Healthchecks would', () => {
    expect(hc('shell', '{"cmd_down": "logger $NAME is down", "cmd_up": ""}')).toMatchObject({ supported: true, fields: { kind: 'shell', notifyDown: true, notifyUp: false, disabled: false } });
    const members = '3f1c9a2b-0000-4000-8000-000000000002,3f1c9a2b-0000-4000-8000-000000000003';
    expect(hc('group', members)).toMatchObject({ supported: true, fields: { kind: 'group', value: members, notifyDown: true, notifyUp: true } });
    expect(hc('github', '{"installation_id": 123, "repo": "alice/foo", "labels": ["foo", "bar"]}')).toMatchObject({ supported: true, fields: { kind: 'github', notifyDown: true, notifyUp: false } });
    expect(hc('trello', '{"board_name": "Ops", "list_id": "5f0c1a2b3c4d5e6f7a8b9c0d", "list_name": "Incidents", "token": "t"}')).toMatchObject({
      supported: true,
      fields: { kind: 'trello', notifyDown: true, notifyUp: false },
    });
  });
});
