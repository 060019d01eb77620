import { expect, it } from 'vitest';
import { resolveChannelIdentifiers } from '../../../src/monitoring/integrations/channel-identifiers.ts';

const channels = [
  { code: '11111111-1111-4111-8111-111111111111', name: 'Email' },
  { code: '22222222-2222-4222-8222-222222222222', name: 'Dup' },
  { code: '33333333-3333-4333-8333-333333333333', name: 'Dup' },
];
const message = (value: string) => {
  try {
    resolveChannelIdentifiers(value, channels);
  } catch (e) {
    return (e as Error).message;
  }
  return null;
};

it('resolves *, empty, uuids and exact names, deduplicated', () => {
  expect(resolveChannelIdentifiers('*', channels)).toHaveLength(3);
  expect(resolveChannelIdentifiers('', channels)).toEqual([]);
  expect(resolveChannelIdentifiers(`Email,${channels[0]!.code},${channels[1]!.code}`, channels)).toEqual([channels[0]!.code, channels[1]!.code]);
});

it('rejects empty, unknown and ambiguous identifiers with Healthchecks messages', () => {
  expect(message('Email,')).toBe('empty channel identifier');
  expect(message('email')).toBe('invalid channel identifier: email');
  expect(message(' Email')).toBe('invalid channel identifier:  Email');
  expect(message('Dup')).toBe('non-unique channel identifier: Dup');
});
