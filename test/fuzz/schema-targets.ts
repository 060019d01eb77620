// Every argument-taking field of the schema as an operation a fuzzer can fill in: read from the
// schema itself, so a field added later is fuzzed without anyone listing it. Nested fields
// (`project { checks(filter:) }`, `check { pings(first:) }`) are reached by the shortest path of
// fields that need no argument; each argument travels in a variable of its declared type.
import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { extremeNumber, nastyString } from './arbitraries.ts';

export interface ArgTarget {
  operation: 'query' | 'mutation' | 'subscription';
  /** Field names from the root to the field whose arguments are fuzzed, e.g. ['project', 'checks']. */
  path: string[];
  args: readonly GraphQLArgument[];
  /** The operation's text, each argument `$a<i>` of its declared type. */
  text: string;
}

function selectionOf(type: GraphQLObjectType | null): string {
  return type === null ? '' : ' { __typename }';
}

/** The targets under one root type: each (type, field) with arguments once, by its shortest path. */
function targetsUnder(root: GraphQLObjectType, operation: ArgTarget['operation']): ArgTarget[] {
  const out: ArgTarget[] = [];
  const seenTypes = new Set<string>([root.name]);
  // Breadth first over object types; a path goes on only through fields that need no argument.
  let frontier: Array<{ type: GraphQLObjectType; path: string[] }> = [{ type: root, path: [] }];
  while (frontier.length) {
    const next: typeof frontier = [];
    for (const { type, path } of frontier) {
      for (const field of Object.values(type.getFields())) {
        if (field.name.startsWith('__')) continue;
        const named = getNamedType(field.type);
        const object = isObjectType(named) ? named : null;
        const fieldPath = [...path, field.name];
        if (field.args.length) {
          const vars = field.args.map((a, i) => `$a${i}: ${String(a.type)}`).join(', ');
          const call = `${field.name}(${field.args.map((a, i) => `${a.name}: $a${i}`).join(', ')})`;
          // Leaves and unions end the path: a union answers `__typename` without fragments.
          const tail = isLeafType(named) ? '' : object ? selectionOf(object) : ' { __typename }';
          const body = [...path.map((p) => `${p} {`), `${call}${tail}`, ...path.map(() => '}')].join(' ');
          out.push({ operation, path: fieldPath, args: field.args, text: `${operation}(${vars}) { ${body} }` });
        }
        // Subscriptions select one root field and nothing deeper is fuzzed; the query depth limit is 10.
        if (operation === 'subscription' || !object || seenTypes.has(object.name) || fieldPath.length >= 6) continue;
        if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
        seenTypes.add(object.name);
        next.push({ type: object, path: fieldPath });
      }
    }
    frontier = next;
  }
  return out;
}

export function argTargets(schema: GraphQLSchema): ArgTarget[] {
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  return roots.flatMap(([op, type]) => (type ? targetsUnder(type, op) : []));
}

/** Long strings past every bound we know (200 search chars, SQLite's 50,000-byte LIKE pattern) and odd ones. */
export const longOrOddString = fc.oneof(
  { weight: 2, arbitrary: nastyString },
  { weight: 3, arbitrary: fc.constantFrom(201, 501, 5_000, 50_001, 60_000, 120_000).chain((n) => fc.constantFrom('x', '%', '_', 'word ', 'é', '\\').map((s) => s.repeat(Math.ceil(n / s.length)))) },
  { weight: 1, arbitrary: fc.constantFrom('*current', '1', '0', '-1', '2147483648', 'any', '%', '%_%', 'a b c d e f g h i j k l', '"quoted"', 'first:Ada', 'mode:or', '__proto__') },
);

/** A value for `type`, mostly of the right shape, with long strings and long lists. `known` adds seeded IDs and handles. */
export function valueFor(type: GraphQLInputType, known: fc.Arbitrary<string>, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return valueFor(type.ofType, known, depth);
  if (isListType(type)) {
    const item = valueFor(type.ofType, known, depth + 1);
    return fc.oneof(
      { weight: 4, arbitrary: fc.array(item, { maxLength: 4 }) },
      // Long lists of one short value (an input object's long list is of empty objects, so the body stays well under 1 MiB).
      { weight: 1, arbitrary: fc.tuple(item, fc.constantFrom(1_001, 5_000, 20_000)).map(([v, n]) => Array.from({ length: n }, () => (typeof v === 'string' ? v.slice(0, 20) : typeof v === 'object' && v !== null ? {} : v))) },
    );
  }
  if (isEnumType(type)) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) }, { weight: 1, arbitrary: nastyString });
  if (isInputObjectType(type)) {
    if (depth > 3) return fc.constant({});
    const fields = Object.values(type.getFields());
    return fc.record(Object.fromEntries(fields.map((f) => [f.name, fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: valueFor(f.type, known, depth + 1) })])), { requiredKeys: [] });
  }
  switch (type.name) {
    case 'Int':
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2, 100, 1000, 1001, 1_000_001) }, { weight: 1, arbitrary: extremeNumber });
    case 'Boolean':
      return fc.boolean();
    case 'DateTime':
      return fc.oneof(fc.constantFrom('2026-01-05T10:00:00Z', '9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'), nastyString);
    default:
      // String, ID and custom scalars.
      return fc.oneof({ weight: 2, arbitrary: known }, { weight: 3, arbitrary: longOrOddString });
  }
}

/** Variables for a target: each argument given, null or left out (a required one is always given). */
export function variablesFor(target: ArgTarget, known: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    Object.fromEntries(target.args.map((a, i) => [`a${i}`, isNonNullType(a.type) ? valueFor(a.type, known) : fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 5, arbitrary: valueFor(a.type, known) })])),
    { requiredKeys: target.args.flatMap((a, i) => (isNonNullType(a.type) ? [`a${i}`] : [])) },
  );
}

/** The GraphQL errors of a response body that are the server's fault (masked), if any. */
export function internalErrors(text: string): unknown[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const errors = (body as { errors?: Array<{ extensions?: { code?: unknown } }> } | null)?.errors ?? [];
  return errors.filter((e) => e?.extensions?.code === 'INTERNAL_SERVER_ERROR');
}

/** A plain value of `type` that passes coercion: what a sweep puts in the arguments it is not probing. */
function plainValue(type: GraphQLInputType, known: string): unknown {
  if (isNonNullType(type)) return plainValue(type.ofType, known);
  if (isListType(type)) return [plainValue(type.ofType, known)];
  if (isEnumType(type)) return type.getValues()[0]!.name;
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) if (isNonNullType(f.type)) out[f.name] = plainValue(f.type, known);
    return out;
  }
  // `known` is an ID that exists (a check's UUID); text arguments get "1", an ID most kinds have.
  return type.name === 'Int' ? 1 : type.name === 'Boolean' ? true : type.name === 'DateTime' ? '2026-01-05T10:00:00Z' : type.name === 'ID' ? known : '1';
}

/** Where a text value goes in an argument: the argument itself or a field of its input object (one level). */
function textSlots(type: GraphQLInputType, depth = 0): Array<{ path: string[]; list: boolean }> {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return textSlots(inner.ofType, depth).map((s) => ({ ...s, list: true }));
  if (isInputObjectType(inner)) {
    if (depth > 0) return [];
    return Object.values(inner.getFields()).flatMap((f) => textSlots(f.type, depth + 1).map((s) => ({ ...s, path: [f.name, ...s.path] })));
  }
  return ['String', 'ID'].includes(inner.name) ? [{ path: [], list: false }] : [];
}

/**
 * Deterministic cases for a target: each text argument (or text field of an input argument) in
 * turn set to what `fill` gives for it (nothing: skipped), the other optional arguments left
 * out, the required ones plain. Random runs may miss a bound; a sweep reaches every one.
 */
export function slotSweep(target: ArgTarget, knownId: string, fill: (slot: { list: boolean }) => unknown): Array<{ slot: string; variables: Record<string, unknown> }> {
  // Only required arguments get a value: an optional one could fail first and hide the probe.
  const base = (): Record<string, unknown> => Object.fromEntries(target.args.flatMap((a, i) => (isNonNullType(a.type) ? [[`a${i}`, plainValue(a.type, knownId)]] : [])));
  return target.args.flatMap((arg, i) =>
    textSlots(arg.type).flatMap(({ path, list }) => {
      const value = fill({ list });
      if (value === undefined) return [];
      const variables = base();
      if (path.length === 0) variables[`a${i}`] = value;
      else {
        const input = (variables[`a${i}`] ?? {}) as Record<string, unknown>;
        variables[`a${i}`] = Array.isArray(input) ? [{ ...input[0], [path[0]!]: value }] : { ...input, [path[0]!]: value };
      }
      return [{ slot: [arg.name, ...path].join('.'), variables }];
    }),
  );
}
