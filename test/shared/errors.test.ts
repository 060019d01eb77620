// Error messages quote callers' input in places: they stay short whatever was sent.
import { expect, it } from 'vitest';
import { createWorld } from '../helpers/world.ts';
import { MAX_ERROR_MESSAGE, notFound } from '../../src/shared/errors.ts';

it('cuts a long message to MAX_ERROR_MESSAGE characters, ending in an ellipsis', () => {
  expect(notFound('short').message).toBe('short');
  const long = notFound(`channel not found: ${'x'.repeat(60_000)}`).message;
  expect(long).toHaveLength(MAX_ERROR_MESSAGE);
  expect(long.startsWith('channel not found: xxx')).toBe(true);
  expect(long.endsWith('…')).toBe(true);
});

it('answers a 60,000-character channel identifier with a short error over GraphQL', async () => {
  const w = await createWorld();
  try {
    const res = await fetch(`${w.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': w.alice.api_key },
      body: JSON.stringify({ query: 'mutation($id: ID!) { deleteChannel(id: $id) }', variables: { id: 'x'.repeat(60_000) } }),
    });
    const text = await res.text();
    expect(text.length).toBeLessThan(2_000);
    expect(JSON.parse(text).errors[0].extensions.code).toBeTruthy();
  } finally {
    await w.stop();
  }
});
