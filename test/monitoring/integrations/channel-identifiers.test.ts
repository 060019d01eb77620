import { expect, it } from 'vitest';
import { resolveChannelIdentifiers } from '../../../src/monitoring/integrations/channel-identifiers.ts';
import { DomainError } from '../../../src/shared/errors.ts';

const EMAIL = '11111111-1111-4111-8111-111111111111';
const DUP_A = '22222222-2222-4222-8222-222222222222';
const DUP_B = '33333333-3333-4333-8333-333333333333';
const ALIAS = '44444444-4444-4444-8444-444444444444';
const channels = [
  { code: EMAIL, name: 'Email' },
  { code: DUP_A, name: 'Dup' },
  { code: DUP_B, name: 'Dup' },
  { code: ALIAS, name: EMAIL }, // a name equal to another channel's uuid
  { code: 'abcdefab-5555-4555-8555-555555555555', name: 'Slack' },
];
const message = (value: string) => {
  try {
    resolveChannelIdentifiers(value, channels);
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('VALIDATION');
    return (e as Error).message;
  }
  return null;
};

it('"*" selects every channel, in the given order', () => {
  expect(resolveChannelIdentifiers('*', channels)).toEqual(channels.map((c) => c.code));
  expect(resolveChannelIdentifiers('*', [])).toEqual([]);
});

it('"" selects no channel', () => {
  expect(resolveChannelIdentifiers('', channels)).toEqual([]);
});

it('matches uuids and exact names, deduplicated in order of first appearance', () => {
  expect(resolveChannelIdentifiers('Slack', channels)).toEqual([channels[4]!.code]);
  expect(resolveChannelIdentifiers(`${DUP_A},Slack,${DUP_A},Slack`, channels)).toEqual([DUP_A, channels[4]!.code]);
  expect(resolveChannelIdentifiers(`${ALIAS},${DUP_B}`, channels)).toEqual([ALIAS, DUP_B]);
});

it('rejects an empty token (leading, trailing or doubled comma)', () => {
  expect(message('Slack,')).toBe('empty channel identifier');
  expect(message(',Slack')).toBe('empty channel identifier');
  expect(message('Slack,,Slack')).toBe('empty channel identifier');
  expect(message(',')).toBe('empty channel identifier');
});

it('rejects an unknown token without trimming or case folding', () => {
  expect(message('slack')).toBe('invalid channel identifier: slack');
  expect(message(' Slack')).toBe('invalid channel identifier:  Slack');
  expect(message('Slack, Slack')).toBe('invalid channel identifier:  Slack');
  const upper = channels[4]!.code.toUpperCase();
  expect(message(upper)).toBe(`invalid channel identifier: ${upper}`);
  expect(message('**')).toBe('invalid channel identifier: **');
});

it('rejects a token matching several channels', () => {
  expect(message('Dup')).toBe('non-unique channel identifier: Dup');
  expect(message(EMAIL)).toBe(`non-unique channel identifier: ${EMAIL}`);
});

it('reports the first bad token in order', () => {
  expect(message('nope,Dup')).toBe('invalid channel identifier: nope');
  expect(message('Dup,nope')).toBe('non-unique channel identifier: Dup');
});
