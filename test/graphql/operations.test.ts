// The committed client operations stay valid against the schema (codegen relies on them).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { expect, it } from 'vitest';

const dir = path.join(import.meta.dirname, 'operations');

it.each(readdirSync(dir).filter((f) => f.endsWith('.graphql')))('%s validates against schema.graphql', (file) => {
  const schema = buildSchema(readFileSync(path.join(import.meta.dirname, '../../schema.graphql'), 'utf8'));
  const errors = validate(schema, parse(readFileSync(path.join(dir, file), 'utf8')));
  expect(errors.map((e) => e.message)).toEqual([]);
});

it('typed operations from codegen run against a live server', async () => {
  const { print } = await import('graphql');
  const { CheckOverviewDocument, CreateCheckDocument } = await import('../../src/generated/graphql/graphql.ts');
  const { createWorld } = await import('../helpers/world.ts');
  const { gql } = await import('../helpers/gql.ts');
  const w = await createWorld();
  try {
    const created = await gql(w, print(CreateCheckDocument), { input: { name: 'typed', tags: 'codegen' } });
    expect(created.data.createCheck).toMatchObject({ created: true, check: { name: 'typed', status: 'NEW' } });
    const overview = await gql(w, print(CheckOverviewDocument), { tags: ['codegen'], first: 10 });
    expect(overview.data.project.checks).toMatchObject({ totalCount: 1, nodes: [{ name: 'typed', flips: [] }] });
    // One object, one cache key: the list gives the check the global id its creation gave it.
    const { id, uuid } = created.data.createCheck.check;
    expect(overview.data.project.checks.nodes[0]).toMatchObject({ id, uuid });
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
  } finally {
    await w.stop();
  }
});
