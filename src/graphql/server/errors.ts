// Domain errors become GraphQL errors with a stable `extensions.code`; everything else stays
// masked by graphql-yoga ("Unexpected error.").
import { GraphQLError } from 'graphql';
import { DomainError, OtherProjectError, RateLimitedError, RecordValidationError } from '../../shared/errors.ts';
import { SecondFactorRequiredError } from '../../identity/sign-in.ts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from '../../db/unavailable.ts';
import { isTextTheDatabaseRefused, REFUSED_TEXT_MESSAGE } from '../../db/refused-text.ts';

const codes = {
  VALIDATION: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
} as const;

export function toGraphQLError(error: unknown): GraphQLError | null {
  // Duck-typed: graphql ships CommonJS and ESM builds, and yoga may hold the other class.
  const wrapped = typeof error === 'object' && error !== null && 'originalError' in error ? (error as GraphQLError) : undefined;
  const original = wrapped ? wrapped.originalError : error;
  // The 429 of HTTP, per field: the client may retry after `retryAfter` seconds.
  if (original instanceof RateLimitedError) {
    // Over HTTP the response is a 429 with Retry-After too (yoga reads `http`; sockets drop it).
    return new GraphQLError(original.message, {
      nodes: wrapped?.nodes,
      path: wrapped?.path,
      extensions: { code: 'RATE_LIMITED', retryAfter: original.retryAfter, http: { status: 429, headers: { 'Retry-After': String(original.retryAfter) } } },
    });
  }
  // The password was right; the client asks for the second factor and signs in again.
  if (original instanceof SecondFactorRequiredError) {
    return new GraphQLError(original.message, { nodes: wrapped?.nodes, path: wrapped?.path, extensions: { code: 'SECOND_FACTOR_REQUIRED', methods: original.methods.map((m) => m.toUpperCase()) } });
  }
  // The database is away: a 503 the client may retry, not a masked internal error.
  if (isDatabaseUnavailable(original)) {
    return new GraphQLError('database unavailable, try again shortly', {
      nodes: wrapped?.nodes,
      path: wrapped?.path,
      extensions: { code: 'UNAVAILABLE', retryAfter: UNAVAILABLE_RETRY_AFTER_S, http: { status: 503, headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) } } },
    });
  }
  // Text PostgreSQL cannot store (NUL) that no domain rule caught first: the client's input.
  if (isTextTheDatabaseRefused(original)) {
    return new GraphQLError(REFUSED_TEXT_MESSAGE, { nodes: wrapped?.nodes, path: wrapped?.path, extensions: { code: 'BAD_USER_INPUT' } });
  }
  if (!(original instanceof DomainError)) return null;
  // Another project's check is simply invisible over GraphQL: no hint that it exists.
  const hidden = original instanceof OtherProjectError;
  const code = hidden ? 'NOT_FOUND' : codes[original.code];
  const message = hidden ? 'not found' : original.message;
  // Campus validation failures carry every field's message, as Slate's validationErrors.
  const extensions = original instanceof RecordValidationError ? { code, validationErrors: original.fields } : { code };
  return new GraphQLError(message, { nodes: wrapped?.nodes, path: wrapped?.path, extensions });
}

/**
 * An error about the request itself, meant for the client: syntax, validation, query limits,
 * variables, HTTP-level refusals. They come before execution, so they have no path; during
 * execution only an argument's coercion is the client's fault. Anything else with a path that
 * is not a DomainError (graphql-js's "Expected Iterable…", a resolver's bug) is ours: masked.
 */
export function isClientGraphQLError(error: unknown): error is GraphQLError {
  if (typeof error !== 'object' || error === null || !('locations' in error) || !('message' in error)) return false;
  const { path, message } = error as GraphQLError;
  if (path && !/^Argument "/.test(message)) return false;
  // A variable an input scalar refused (DateTime's "invalid DateTime"): graphql-js keeps the
  // scalar's TypeError as the original, but the message is the explanation for the client.
  if (!path && /^Variable "\$/.test(message)) return true;
  const original = (error as { originalError?: unknown }).originalError;
  return original === undefined || original === null || isClientGraphQLError(original);
}

/** The code of a request error graphql-js or yoga left without one. */
const requestErrorCode = (message: string) => (/^(Variable "\$|Argument "|Too many errors processing variables)/.test(message) ? 'BAD_USER_INPUT' : 'BAD_REQUEST');

/**
 * A client error as the client sees it: always an `extensions.code`, never the internals some
 * producers attach (yoga's invalid-JSON error carries the JSON parser's `originalError`).
 */
export function clientError(error: GraphQLError, messages: Record<string, string> = {}): GraphQLError {
  const { originalError, stack: _stack, exception: _exception, ...extensions } = (error.extensions ?? {}) as Record<string, unknown>;
  const code = typeof extensions.code === 'string' ? extensions.code : requestErrorCode(error.message);
  // Yoga tells an unreadable body (invalid JSON) from a GraphQL error by that `originalError`,
  // and answers it 400 whatever the Accept header. Without it, `spec: false` keeps the 400.
  const http = extensions.http as { spec?: boolean } | undefined;
  if (originalError !== undefined && http?.spec) extensions.http = { ...http, spec: false };
  return new GraphQLError(messages[code] ?? error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...extensions, code },
  });
}
