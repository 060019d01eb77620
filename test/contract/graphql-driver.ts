import { gql } from '../helpers/gql.ts';
import type { World } from '../helpers/world.ts';
import type { CheckInput, CheckView, Driver, ErrorCode, Result } from './driver.ts';

const FIELDS = 'uuid uniqueKey name tags timeout grace schedule tz status started nPings manualResume';
const codeMap: Record<string, ErrorCode> = { BAD_USER_INPUT: 'VALIDATION', UNAUTHENTICATED: 'UNAUTHENTICATED', FORBIDDEN: 'FORBIDDEN', NOT_FOUND: 'NOT_FOUND', CONFLICT: 'CONFLICT' };

function view(c: any): CheckView {
  return {
    id: c.uuid ?? c.uniqueKey,
    name: c.name,
    tags: c.tags.join(' '),
    timeout: c.timeout,
    grace: c.grace,
    schedule: c.schedule,
    tz: c.tz,
    status: c.status.toLowerCase(),
    started: c.started,
    nPings: c.nPings,
    manualResume: c.manualResume,
  };
}

function toInput(input: CheckInput) {
  return { ...input, unique: input.unique?.map((u) => u.toUpperCase()) };
}

export function graphqlDriver(w: World): Driver {
  async function run<T>(query: string, variables: Record<string, unknown>, key: string, pick: (data: any) => T): Promise<Result<T>> {
    const res = await gql(w, query, variables, key);
    if (res.errors?.length) {
      const e = res.errors[0]!;
      return { ok: false, code: codeMap[e.extensions?.code ?? ''] ?? ('UNKNOWN' as ErrorCode), message: e.message };
    }
    return { ok: true, value: pick(res.data) };
  }
  const mutation = (name: string) => (key: string, id: string) =>
    run(`mutation($id: ID!) { ${name}(id: $id) { ${FIELDS} } }`, { id }, key, (d) => view(d[name]));
  return {
    name: 'GraphQL',
    createCheck: (key, input) =>
      run(`mutation($input: CheckInput!) { createCheck(input: $input) { created check { ${FIELDS} } } }`, { input: toInput(input) }, key, (d) => ({
        check: view(d.createCheck.check),
        created: d.createCheck.created,
      })),
    updateCheck: (key, id, input) =>
      run(`mutation($id: ID!, $input: CheckInput!) { updateCheck(id: $id, input: $input) { ${FIELDS} } }`, { id, input: toInput(input) }, key, (d) => view(d.updateCheck)),
    getCheck: (key, id) => run(`query($id: ID!) { check(id: $id) { ${FIELDS} } }`, { id }, key, (d) => view(d.check)),
    listChecks: (key, tags = []) =>
      run(`query($tags: [String!]) { project { checks(filter: { tags: $tags }) { nodes { ${FIELDS} } } } }`, { tags }, key, (d) => d.project.checks.nodes.map(view)),
    pauseCheck: mutation('pauseCheck'),
    resumeCheck: mutation('resumeCheck'),
    deleteCheck: mutation('deleteCheck'),
    flips: (key, id) =>
      run(`query($id: ID!) { check(id: $id) { flips { up timestamp } } }`, { id }, key, (d) => d.check.flips.map((f: any) => ({ up: f.up, at: f.timestamp }))),
  };
}
