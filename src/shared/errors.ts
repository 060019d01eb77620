// Typed domain errors with stable codes. Each transport maps them once:
// REST to Healthchecks' status codes and bodies, GraphQL to `extensions.code`.
export type DomainErrorCode =
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT';

/**
 * Longest message an error carries. Some messages quote what the caller sent ("channel not
 * found: <id>"); a 60,000-character identifier must not come back whole in every answer.
 */
export const MAX_ERROR_MESSAGE = 500;

const bounded = (message: string) => (message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE - 1)}…` : message);

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(bounded(message));
    this.name = 'DomainError';
  }
}

export const validationError = (message: string) => new DomainError('VALIDATION', message);
export const notFound = (message = 'not found') => new DomainError('NOT_FOUND', message);
export const forbidden = (message = 'forbidden') => new DomainError('FORBIDDEN', message);
export const conflict = (message: string) => new DomainError('CONFLICT', message);
export const unauthenticated = (message: string) => new DomainError('UNAUTHENTICATED', message);

/**
 * Too many requests of one kind (sign-in attempts, channel tests): the caller may try again after
 * `retryAfter` seconds. GraphQL answers RATE_LIMITED (a 429 with Retry-After over HTTP).
 */
export class RateLimitedError extends Error {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(bounded(message));
    this.name = 'RateLimitedError';
  }
}

/** A record that failed validation: field → message, plus the values as submitted. */
export class RecordValidationError extends DomainError {
  constructor(
    readonly fields: Record<string, string>,
    readonly record: Record<string, unknown>,
  ) {
    super('VALIDATION', Object.values(fields)[0] ?? 'invalid record');
  }
}

/** Another project's check: REST answers 403 as Healthchecks does; GraphQL hides it as not found. */
export class OtherProjectError extends DomainError {
  constructor() {
    super('FORBIDDEN', 'forbidden');
  }
}
