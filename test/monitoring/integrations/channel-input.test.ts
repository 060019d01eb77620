// Channel input validation every kind shares (each kind's own value rules are tested in its
// folder under kinds/): the kind, an empty or over-long value, the name, the notify flags.
import { describe, expect, it } from 'vitest';
import { MAX_VALUE_LENGTH, validateChannelInput } from '../../../src/monitoring/integrations/service.ts';
import { refusal } from './kinds/helpers.ts';

describe('validateChannelInput: every kind', () => {
  it('refuses an empty and an over-long value before the kind judges it', () => {
    expect(refusal(() => validateChannelInput({ kind: 'email', value: '   ' }))).toBe('value must not be empty');
    expect(refusal(() => validateChannelInput({ kind: 'email', value: `${'a'.repeat(MAX_VALUE_LENGTH - 5)}@x.org` }))).toBe('value is too long');
    // A shell channel with two commands of Healthchecks' full 1,000 characters each is taken.
    const long = (c: string) => `echo ${c.repeat(995)}`;
    expect(validateChannelInput({ kind: 'shell', value: JSON.stringify({ cmd_down: long('d'), cmd_up: long('u') }) }).value.length).toBeGreaterThan(2000);
  });

  it('refuses an unknown kind, a long name, and turning off both statuses', () => {
    expect(refusal(() => validateChannelInput({ kind: 'pager', value: 'x' }))).toBe('kind must be one of email, webhook, sms, slack, mattermost, rocketchat, discord, pagerduty, opsgenie, victorops, pagertree, spike, ntfy, pushover, pushbullet, gotify, msteams, googlechat, zulip, telegram, whatsapp, call, matrix, signal, apprise, shell, group, github, trello');
    expect(refusal(() => validateChannelInput({ kind: 'email', value: 'a@b.co', name: 'n'.repeat(101) }))).toBe('name is too long');
    expect(refusal(() => validateChannelInput({ kind: 'email', value: 'a@b.co', notifyDown: false, notifyUp: false }))).toBe('a channel must notify of down, up or both');
  });

  it('keeps explicit notify flags and the disabled flag', () => {
    expect(validateChannelInput({ kind: 'email', value: 'a@b.co', notifyUp: false, disabled: true })).toMatchObject({ notifyDown: true, notifyUp: false, disabled: true });
  });
});
