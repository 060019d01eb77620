// A value to be stored with NUL is refused with a clear 400 on both databases (PostgreSQL's text
// cannot hold one, and what SQLite holds must move to PostgreSQL): check fields over REST and
// GraphQL, channel names and values, status page tags, project names, account names (security
// key names: test/identity/second-factors/webauthn.test.ts). Nothing is stored.
import { expect, it } from 'vitest';
import { createProject } from '../../src/monitoring/projects/service.ts';
import { createAccount } from '../../src/identity/accounts.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { gql } from '../helpers/gql.ts';

const w = useWorld();

it('refuses every text field of a check with NUL, on create and update, and stores nothing', async () => {
  const before = await w.app.db.check.count();
  for (const field of ['name', 'desc', 'tags', 'slug', 'channels', 'subject', 'subject_fail', 'start_kw', 'success_kw', 'failure_kw']) {
    const res = await w.api('POST', '/api/v3/checks/', { body: { name: 'ok', [field]: 'a\u0000b' } });
    expect(res.status, field).toBe(400);
    expect(res.json, field).toEqual({ error: `json validation error: ${field} must not contain NUL characters` });
  }
  expect(await w.app.db.check.count()).toBe(before);
  const created = (await w.api('POST', '/api/v3/checks/', { body: { name: 'kept' } })).json;
  const update = await w.api('POST', `/api/v3/checks/${created.uuid}`, { body: { desc: '\u0000' } });
  expect(update.status).toBe(400);
  expect((await w.app.db.check.findFirstOrThrow({ where: { code: created.uuid } })).desc).toBe('');
  const byGraphql = await gql(w, 'mutation { createCheck(input: { name: "a\\u0000" }) { check { name } } }');
  expect(byGraphql.errors?.[0]).toMatchObject({ message: 'json validation error: name must not contain NUL characters', extensions: { code: 'BAD_USER_INPUT' } });
  expect(await w.app.db.check.count()).toBe(before + 1);
});

it('refuses a channel name or value with NUL, a status page tag with NUL and a project name with NUL', async () => {
  const channels = await w.app.db.channel.count();
  const named = await gql(w, 'mutation { createChannel(kind: WEBHOOK, name: "a\\u0000", value: "http://127.0.0.1:9/x") { name } }');
  expect(named.errors?.[0]).toMatchObject({ message: 'name must not contain NUL characters', extensions: { code: 'BAD_USER_INPUT' } });
  const valued = await gql(w, 'mutation { createChannel(kind: EMAIL, value: "a\\u0000@example.org") { name } }');
  expect(valued.errors?.[0]).toMatchObject({ message: 'value must not contain NUL characters', extensions: { code: 'BAD_USER_INPUT' } });
  expect(await w.app.db.channel.count()).toBe(channels);
  const page = await gql(w, 'mutation { setStatusPage(slug: "ok", tags: ["x\\u0000"]) { name } }');
  expect(page.errors?.[0]).toMatchObject({ message: 'a tag must not contain NUL characters', extensions: { code: 'BAD_USER_INPUT' } });
  expect((await w.app.db.project.findFirstOrThrow({ where: { id: w.alice.id } })).statusSlug).toBeNull();
  const projects = await w.app.db.project.count();
  await expect(createProject(w.app.db, { name: 'a\u0000b' })).rejects.toThrow('name must not contain NUL characters');
  expect(await w.app.db.project.count()).toBe(projects);
});

it('refuses an account whose first or last name holds NUL (the CLI gives them), and stores no one', async () => {
  const people = await w.app.db.person.count();
  const input = { username: 'nul-person', email: 'nul@example.org', password: 'a long passphrase here' };
  await expect(createAccount(w.app.db, { ...input, firstName: 'A\u0000' })).rejects.toThrow('first name must not contain NUL characters');
  await expect(createAccount(w.app.db, { ...input, lastName: '\u0000' })).rejects.toThrow('last name must not contain NUL characters');
  expect(await w.app.db.person.count()).toBe(people);
});
