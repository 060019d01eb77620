// Domain errors become GraphQL errors with a stable `extensions.code`; everything else stays
// masked by graphql-yoga ("Unexpected error.").
import { GraphQLError } from 'graphql';
import { DomainError, OtherProjectError, RecordValidationError } from '../shared/errors.ts';

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
  if (!(original instanceof DomainError)) return null;
  // Another project's check is simply invisible over GraphQL: no hint that it exists.
  const hidden = original instanceof OtherProjectError;
  const code = hidden ? 'NOT_FOUND' : codes[original.code];
  const message = hidden ? 'not found' : original.message;
  // Campus validation failures carry every field's message, as Slate's validationErrors.
  const extensions = original instanceof RecordValidationError ? { code, validationErrors: original.fields } : { code };
  return new GraphQLError(message, { nodes: wrapped?.nodes, path: wrapped?.path, extensions });
}
