// Queries and mutations run as compiled functions (graphql-jit): one function per operation,
// generated once, does what graphql-js's executor interprets anew on every request (field
// collection, argument and type look-ups, the completion of each value). On the dashboard
// query that executor was the largest cost GraphQL adds to the same SQL (docs/performance.md).
//
// Subscriptions stay on yoga's executor: a shared subscription executes each event once for
// all its subscribers (shared-subscriptions.ts), so there is little left to gain there.
// An operation graphql-jit cannot compile runs on yoga's executor too, as it always did, and so
// does one that reaches a type checked by `isTypeOf` (below).
import {
  getNamedType,
  getVariableValues,
  GraphQLError,
  isAbstractType,
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { makeExecute, type Plugin } from 'graphql-yoga';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * Documents whose compiled operations are kept. Each distinct document a client sends costs one
 * compilation and its functions' memory: a least-recently-used bound keeps clients that send
 * endless distinct documents from growing memory, while the handful an application sends stay.
 */
export const MAX_COMPILED_DOCUMENTS = 256;

export interface CompiledExecution {
  plugin: Plugin;
  /** Operations kept, compiled or known not to be (a document whose two operations ran counts twice). */
  size(): number;
}

type Compiled = CompiledQuery['query'] | null; // null: graphql-jit refused, yoga's executor runs it

export function compiledExecution({ maxDocuments = MAX_COMPILED_DOCUMENTS, registry }: { maxDocuments?: number; registry?: Registry } = {}): CompiledExecution {
  // Keyed by the parsed document: yoga's parser cache gives one object per query text. A Map
  // iterates in insertion order, so re-inserting on each hit makes its first key the least recent.
  const documents = new Map<DocumentNode, Map<string, Compiled>>();
  let size = 0;
  const executions = registry
    ? new Counter({
        name: 'gateway_graphql_executions_total',
        help: 'GraphQL queries and mutations executed, by executor: compiled (graphql-jit) or interpreted (yoga’s executor, for what could not be compiled)',
        labelNames: ['executor'] as const,
        registers: [registry],
      })
    : undefined;
  if (registry) {
    new Gauge({ name: 'gateway_graphql_compiled_operations', help: 'GraphQL operations kept by the compiled executor, compiled or known not to compile', registers: [registry], collect() { this.set(size); } });
  }

  const checked = new WeakMap<GraphQLSchema, (type: GraphQLNamedType) => boolean>();

  function compiled(args: ExecutionArgs): Compiled {
    const name = args.operationName ?? '';
    let operations = documents.get(args.document);
    if (operations) {
      documents.delete(args.document);
      documents.set(args.document, operations);
      const hit = operations.get(name);
      if (hit !== undefined) return hit;
    } else {
      operations = new Map();
      documents.set(args.document, operations);
      if (documents.size > maxDocuments) {
        const [oldest, itsOperations] = documents.entries().next().value!;
        documents.delete(oldest);
        size -= itsOperations.size;
      }
    }
    const checks = checked.get(args.schema) ?? checked.set(args.schema, typeCheckedByIsTypeOf(args.schema)).get(args.schema)!;
    const result = reaches(args.schema, args.document, checks) ? null : compileQuery(args.schema, args.document, args.operationName ?? undefined, {
      // Stacks are for resolver errors, which keep their own (the originalError's); errors made
      // by the executor (null in a non-null field) are masked and logged without one anyway.
      disablingCapturingStackErrors: true,
      // @skip/@include on fragment spreads as graphql-js applies them (the default path-less
      // behaviour can keep a field a skipped spread also selects; graphql-jit's PR 197).
      useExperimentalPathBasedSkipInclude: true,
    });
    const query = result && isCompiledQuery(result) ? result.query : null;
    operations.set(name, query);
    size++;
    return query;
  }

  return {
    size: () => size,
    plugin: {
      onExecute({ args, executeFn, setExecuteFn }) {
        const operation = operationOf(args.document, args.operationName);
        const query = operation && operation.operation !== 'subscription' ? compiled(args) : null;
        if (!query) {
          executions?.inc({ executor: 'interpreted' });
          return;
        }
        executions?.inc({ executor: 'compiled' });
        const interpreted = executeFn;
        const variables = operation!.variableDefinitions ?? [];
        setExecuteFn(
          makeExecute((final) => {
            // Variables are checked by graphql-js first, which stops at 50 errors: graphql-jit
            // reports every one, each with a stack (a list of 20,000 invalid input objects held
            // the event loop for seconds). Refused, they are the interpreter's to answer.
            if (variables.length && getVariableValues(final.schema, variables, final.variableValues ?? {}, { maxErrors: 50 }).errors) return interpreted(final);
            return then(query(final.rootValue, final.contextValue, final.variableValues), (result) =>
              // No `data`: the compiled function refused the variables before running anything.
              // Yoga's executor answers that request, as it always did (its errors carry the
              // 400 of an invalid request; graphql-jit's do not).
              'data' in result ? withGraphQLErrors(result, final.document) : interpreted(final),
            );
          }),
        );
      },
    },
  };
}

const then = <T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<Awaited<R>> =>
  typeof (value as { then?: unknown } | null)?.then === 'function' ? (value as Promise<T>).then(next) as Promise<Awaited<R>> : next(value as T);

/**
 * graphql-jit's errors are its own kind of GraphQLError, with `locations` but neither nodes nor
 * source positions: yoga's masking and our domain errors (errors.ts) rebuild errors from their
 * nodes, and the locations were lost (an error no longer said where in the query it arose).
 * Each becomes graphql-js's own error, with the same message, path, field nodes, original error
 * and extensions, as yoga's executor would have made it.
 */
function withGraphQLErrors(result: ExecutionResult, document: DocumentNode): ExecutionResult {
  if (!result.errors?.length) return result;
  const source = document.loc?.source;
  let fields: Map<number, FieldNode> | undefined;
  let offsets: number[] | undefined;
  const errors = result.errors.map((error) => {
    if (error.constructor === GraphQLError) return error;
    // The fields it names, found again by where they start in the query text.
    fields ??= source ? fieldsByStart(document) : new Map();
    offsets ??= source ? lineOffsets(source.body) : [];
    const nodes = error.locations?.map((l) => fields!.get((offsets![l.line - 1] ?? 0) + l.column - 1)).filter((n) => n !== undefined);
    return new GraphQLError(error.message, {
      nodes: nodes?.length ? nodes : undefined,
      path: error.path,
      originalError: error.originalError ?? undefined,
      extensions: error.extensions,
    });
  });
  return { ...result, errors };
}

function fieldsByStart(document: DocumentNode): Map<number, FieldNode> {
  const fields = new Map<number, FieldNode>();
  visit(document, {
    Field(node) {
      if (node.loc) fields.set(node.loc.start, node);
    },
  });
  return fields;
}

/** Where each line of a text starts (GraphQL's line terminators: \r\n, \n, \r). */
function lineOffsets(body: string): number[] {
  const offsets = [0];
  const terminator = /\r\n|[\n\r]/g;
  while (terminator.exec(body)) offsets.push(terminator.lastIndex);
  return offsets;
}

/** The operation that runs, as graphql-js picks it; undefined when none does (its executor says why). */
function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  let found: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind !== 'OperationDefinition') continue;
    if (operationName == null) {
      if (found) return undefined;
      found = definition;
    } else if (definition.name?.value === operationName) {
      return definition;
    }
  }
  return found;
}

/**
 * Whether a value of this type is checked by an `isTypeOf` once resolved. graphql-jit calls an
 * object type's `isTypeOf` with the value alone and takes its answer as it comes, where
 * graphql-js passes the context and awaits it: the campus types' read rules (scope-auth's
 * `runScopesOnType`, schema/campus/records.ts) run there, and compiled they would be skipped
 * (a promise is truthy). Operations that may reach such a type are not compiled.
 */
function typeCheckedByIsTypeOf(schema: GraphQLSchema): (type: GraphQLNamedType) => boolean {
  const memo = new Map<GraphQLNamedType, boolean>();
  return (type) => {
    let hit = memo.get(type);
    if (hit === undefined) {
      if (isObjectType(type)) hit = typeof type.isTypeOf === 'function';
      else if (isAbstractType(type)) hit = schema.getPossibleTypes(type).some((t) => typeof t.isTypeOf === 'function');
      else hit = false;
      memo.set(type, hit);
    }
    return hit;
  };
}

/** Whether any selection of the document (every operation and fragment) is of a type `checks` holds. */
function reaches(schema: GraphQLSchema, document: DocumentNode, checks: (type: GraphQLNamedType) => boolean): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  const test = () => {
    const type = typeInfo.getType();
    if (type && checks(getNamedType(type))) found = true;
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: test,
      InlineFragment: test,
      FragmentDefinition: test,
    }),
  );
  return found;
}
