// Typed domain errors with stable codes. Each transport maps them once:
// REST to Healthchecks' status codes and bodies, GraphQL to `extensions.code`.
export type DomainErrorCode =
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (message: string) => new DomainError('VALIDATION', message);
export const notFound = (message = 'not found') => new DomainError('NOT_FOUND', message);
export const forbidden = (message = 'forbidden') => new DomainError('FORBIDDEN', message);
export const conflict = (message: string) => new DomainError('CONFLICT', message);
export const unauthenticated = (message: string) => new DomainError('UNAUTHENTICATED', message);

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
