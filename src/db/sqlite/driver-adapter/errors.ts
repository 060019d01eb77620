// better-sqlite3's errors as Prisma's driver-adapter errors (unique and null violations name
// their fields, a busy database is a timeout, missing tables and columns are named). Ported from
// @prisma/adapter-better-sqlite3 7.10 (Apache-2.0, src/errors.ts) without change of behaviour.
import type { MappedError } from '@prisma/driver-adapter-utils';

const SQLITE_BUSY = 5;
const PRIMARY_ERROR_CODE_MASK = 0xff;
const UNKNOWN_ERROR_CODE_PREFIX = 'UNKNOWN_SQLITE_ERROR_';

type DriverError = { code: string; message: string };

export function isDriverError(error: unknown): error is DriverError {
  return typeof (error as DriverError)?.code === 'string' && typeof (error as DriverError)?.message === 'string';
}

/** The mapped form of a driver error, keeping its code and message. */
export function convertDriverError(error: DriverError): MappedError & { originalCode: string; originalMessage: string } {
  return { originalCode: error.code, originalMessage: error.message, ...mapDriverError(error) };
}

function fieldsAfterConstraint(message: string): string[] | undefined {
  return message.split('constraint failed: ').at(1)?.split(', ');
}

function mapDriverError(error: DriverError): MappedError {
  switch (error.code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY': {
      const columns = fieldsAfterConstraint(error.message);
      const fields = columns?.map((field) => field.split('.').pop()!);
      const table = columns?.at(0)?.split('.').slice(0, -1).join('.') || undefined;
      return { kind: 'UniqueConstraintViolation', constraint: fields !== undefined ? { fields } : undefined, table } as MappedError;
    }
    case 'SQLITE_CONSTRAINT_NOTNULL': {
      const fields = fieldsAfterConstraint(error.message)?.map((field) => field.split('.').pop()!);
      return { kind: 'NullConstraintViolation', constraint: fields !== undefined ? { fields } : undefined } as MappedError;
    }
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
    case 'SQLITE_CONSTRAINT_TRIGGER':
      return { kind: 'ForeignKeyConstraintViolation', constraint: { foreignKey: {} } } as MappedError;
  }
  const extendedCode = extendedCodeFromName(error.code);
  if (error.code.startsWith('SQLITE_BUSY') || (extendedCode !== undefined && (extendedCode & PRIMARY_ERROR_CODE_MASK) === SQLITE_BUSY)) {
    return { kind: 'SocketTimeout' } as MappedError;
  }
  if (error.message.startsWith('no such table')) return { kind: 'TableDoesNotExist', table: error.message.split(': ').at(1) } as MappedError;
  if (error.message.startsWith('no such column')) return { kind: 'ColumnNotFound', column: error.message.split(': ').at(1) } as MappedError;
  if (error.message.includes('has no column named ')) {
    return { kind: 'ColumnNotFound', column: error.message.split('has no column named ').at(1) } as MappedError;
  }
  // The generic code where the driver names none, as the d1 adapter does.
  return { kind: 'sqlite', extendedCode: extendedCode ?? 1, message: error.message } as MappedError;
}

function extendedCodeFromName(code: string): number | undefined {
  if (!code.startsWith(UNKNOWN_ERROR_CODE_PREFIX)) return undefined;
  const extended = Number(code.slice(UNKNOWN_ERROR_CODE_PREFIX.length));
  return Number.isInteger(extended) ? extended : undefined;
}
