// A page of checks reads only the columns its selected fields need (check-columns.ts). Every
// field of the Check type must answer on that page exactly as on a whole row (`check(id:)`), for
// checks of every kind and state; the map must name every field; and the page's SQL must leave
// out the columns nobody asked for.
import { beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isObjectType, isLeafType, type GraphQLObjectType } from 'graphql';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { createAdapterFactory } from '../../src/db/adapter.ts';
import { schema } from '../../src/graphql/schema/schema.ts';
import { CHECK_FIELD_COLUMNS, checkColumnsFor } from '../../src/graphql/schema/monitoring/check-columns.ts';
import { parse, type OperationDefinitionNode, type FieldNode } from 'graphql';
import { T0 } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { postgresUnderTest } from '../helpers/postgres.ts';
import { gql } from '../helpers/gql.ts';
import { inProcess, servicesOn } from './in-process.ts';

const checkType = schema.getType('Check') as GraphQLObjectType;
const w = useWorld({ RATE_LIMITS: 'off' });
const uuids: string[] = [];

/** A selection of `field` that any of its types can answer. */
function selectionOf(name: string): string {
  const type = getNamedType(checkType.getFields()[name]!.type);
  if (isLeafType(type)) return name;
  if (!isObjectType(type)) return `${name} { __typename }`;
  const leaves = Object.values(type.getFields()).filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => a.defaultValue !== undefined || !String(a.type).endsWith('!')));
  return `${name} { ${leaves.map((f) => f.name).join(' ')} }`;
}

beforeAll(async () => {
  await w.channel(w.alice, { name: 'mail' });
  const specs = [
    { name: 'simple', tags: 'nightly campus:section/MATH-001', desc: 'd', channels: '*', timeout: 3600, grace: 120 },
    { name: 'cron', schedule: '5 4 * * 1', tz: 'Europe/Riga', grace: 600, methods: 'POST', manual_resume: true, subject: 'go', subject_fail: 'no', filter_body: true },
    { name: 'running', timeout: 60, grace: 60, start_kw: 'begin', success_kw: 'ok', failure_kw: 'bad' },
    { name: 'paused', slug: 'paused-one' },
    { name: 'new' },
  ];
  for (const body of specs) {
    const res = await w.api('POST', '/api/v3/checks/', { key: w.alice.api_key, body });
    expect(res.status).toBe(201);
    uuids.push(res.json.uuid);
  }
  w.clock.set(T0);
  await w.ping(`/ping/${uuids[0]}/start`);
  w.clock.advance(2_500);
  await w.ping(`/ping/${uuids[0]}`);
  await w.ping(`/ping/${uuids[1]}/fail`, { method: 'POST', body: 'boom' });
  await w.ping(`/ping/${uuids[2]}/start`);
  await w.ping(`/ping/${uuids[3]}`);
  expect((await w.api('POST', `/api/v3/checks/${uuids[3]}/pause`, { key: w.alice.api_key })).status).toBe(200);
  // Past the running check's grace: down by its start, whatever is stored.
  w.clock.advance(90_000);
});

it('names every field of the Check type, and only those', () => {
  expect(Object.keys(CHECK_FIELD_COLUMNS).filter((f) => f !== '__typename').sort()).toEqual(Object.keys(checkType.getFields()).sort());
});

describe.each(Object.keys(checkType.getFields()))('field %s', (field) => {
  it('answers on a page of checks as on a whole row', async () => {
    const selection = selectionOf(field);
    const page = await gql(w, `{ project { checks(first: 10) { nodes { uniqueKey ${selection} } } } }`);
    expect(page.errors).toBeUndefined();
    const nodes = page.data.project.checks.nodes as Record<string, unknown>[];
    expect(nodes).toHaveLength(uuids.length);
    for (const [i, uuid] of uuids.entries()) {
      const whole = await gql(w, `query($id: ID!) { check(id: $id) { uniqueKey ${selection} } }`, { id: uuid });
      expect(whole.errors).toBeUndefined();
      expect(nodes[i]).toEqual(whole.data.check);
    }
  });
});

it('answers the same through a tag filter (the page is read again with its columns)', async () => {
  const q = (filter: string) => gql(w, `{ project { checks(first: 10${filter}) { nodes { name status nextPing tags } } } }`);
  const filtered = await q(', filter: { tags: ["nightly"] }');
  const all = await q('');
  expect(filtered.errors).toBeUndefined();
  expect(filtered.data.project.checks.nodes).toEqual([all.data.project.checks.nodes[0]]);
  expect(filtered.data.project.checks.nodes[0]).toMatchObject({ name: 'simple', status: 'UP' });
});

describe('checkColumnsFor', () => {
  const fieldOf = (query: string) => {
    const doc = parse(query);
    const op = doc.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
    const fragments = Object.fromEntries(doc.definitions.filter((d) => d.kind === 'FragmentDefinition').map((d) => [(d as { name: { value: string } }).name.value, d]));
    // The `checks` field under `project`.
    const checks = ((op.selectionSet.selections[0] as FieldNode).selectionSet!.selections[0]) as FieldNode;
    return { fieldNodes: [checks], fragments } as never;
  };

  it('reads the columns of the selected fields, through fragments, plus the key and cursor', () => {
    const cols = checkColumnsFor(fieldOf(`{ project { checks { nodes { name ...F ... on Check { lastDuration } } } } } fragment F on Check { status }`), ['nodes']);
    expect(new Set(cols)).toEqual(new Set(['id', 'uniqueKey', 'projectId', 'name', 'lastDurationMs', 'kind', 'timeout', 'grace', 'schedule', 'tz', 'status', 'lastPing', 'lastStart']));
  });

  it('asks for whole rows when a field is not in the map', () => {
    expect(checkColumnsFor(fieldOf(`{ project { checks { nodes { name notAField } } } }`), ['nodes'])).toBeNull();
    // Names of Object.prototype are not fields of the map either.
    expect(checkColumnsFor(fieldOf(`{ project { checks { nodes { constructor } } } }`), ['nodes'])).toBeNull();
  });
});

it.skipIf(postgresUnderTest())('leaves out the columns nobody asked for (SQLite: the statements are logged by a client of the same file)', async () => {
  const logged = new PrismaClient({ adapter: createAdapterFactory(w.databaseUrl), log: [{ emit: 'event', level: 'query' }] });
  const statements: string[] = [];
  logged.$on('query', (e) => statements.push(e.query));
  try {
    const q = inProcess(servicesOn(w.app, logged), w.app.log, w.alice.api_key);
    const r = await q(`{ project { checks(first: 10) { nodes { name status } } } }`);
    expect(r.errors).toBeUndefined();
    const page = statements.find((s) => /FROM `main`\.`Check`/.test(s) && /LIMIT/.test(s));
    expect(page).toBeDefined();
    expect(page).toContain('`name`');
    expect(page).toContain('`lastStart`');
    for (const column of ['desc', 'successKw', 'badgeKey', 'filterBody', 'createdAt']) expect(page).not.toContain(`\`${column}\``);
    // Asked for one of them, it is read.
    statements.length = 0;
    await q(`{ project { checks(first: 10) { nodes { desc } } } }`);
    expect(statements.find((s) => /FROM `main`\.`Check`/.test(s) && /LIMIT/.test(s))).toContain('`desc`');
    // Filtered by tag, the whole rows the filter read serve the page: no second read of them
    // without relations, one with them.
    const checkReads = () => statements.filter((s) => /FROM `main`\.`Check`/.test(s)).length;
    statements.length = 0;
    expect((await q(`{ project { checks(first: 10, filter: { tags: ["nightly"] }) { nodes { name } } } }`)).data.project.checks.nodes).toEqual([{ name: 'simple' }]);
    expect(checkReads()).toBe(1);
    statements.length = 0;
    const withFlips = await q(`{ project { checks(first: 10, filter: { tags: ["nightly"] }) { nodes { name flips { newStatus } } } } }`);
    expect(withFlips.data.project.checks.nodes[0].name).toBe('simple');
    expect(checkReads()).toBe(2);
  } finally {
    await logged.$disconnect();
  }
});
