// Values between better-sqlite3 and Prisma's query compiler: declared column types to Prisma's
// column kinds, result rows to the values the compiler expects, and query arguments to what
// SQLite binds. Ported from @prisma/adapter-better-sqlite3 7.10 (Apache-2.0, src/conversion.ts)
// without change of behaviour: the suite that ran on that adapter runs on this one.
import { ColumnTypeEnum, type ArgType, type ColumnType } from '@prisma/driver-adapter-utils';

const DECLARED: Record<string, ColumnType> = {
  DECIMAL: ColumnTypeEnum.Numeric,
  FLOAT: ColumnTypeEnum.Float,
  DOUBLE: ColumnTypeEnum.Double,
  'DOUBLE PRECISION': ColumnTypeEnum.Double,
  NUMERIC: ColumnTypeEnum.Double,
  REAL: ColumnTypeEnum.Double,
  TINYINT: ColumnTypeEnum.Int32,
  SMALLINT: ColumnTypeEnum.Int32,
  MEDIUMINT: ColumnTypeEnum.Int32,
  INT: ColumnTypeEnum.Int32,
  INTEGER: ColumnTypeEnum.Int32,
  SERIAL: ColumnTypeEnum.Int32,
  INT2: ColumnTypeEnum.Int32,
  BIGINT: ColumnTypeEnum.Int64,
  'UNSIGNED BIG INT': ColumnTypeEnum.Int64,
  INT8: ColumnTypeEnum.Int64,
  DATETIME: ColumnTypeEnum.DateTime,
  TIMESTAMP: ColumnTypeEnum.DateTime,
  TIME: ColumnTypeEnum.Time,
  DATE: ColumnTypeEnum.Date,
  TEXT: ColumnTypeEnum.Text,
  CLOB: ColumnTypeEnum.Text,
  CHARACTER: ColumnTypeEnum.Text,
  VARCHAR: ColumnTypeEnum.Text,
  'VARYING CHARACTER': ColumnTypeEnum.Text,
  NCHAR: ColumnTypeEnum.Text,
  'NATIVE CHARACTER': ColumnTypeEnum.Text,
  NVARCHAR: ColumnTypeEnum.Text,
  BLOB: ColumnTypeEnum.Bytes,
  BOOLEAN: ColumnTypeEnum.Boolean,
  JSONB: ColumnTypeEnum.Json,
};

/** The column kind of a declared SQLite type; null where SQLite declares none (expressions). */
export function mapDeclType(declType: string | null): ColumnType | null {
  if (declType === null) return null;
  const upper = declType.toUpperCase();
  return Object.hasOwn(DECLARED, upper) ? DECLARED[upper]! : null;
}

class UnexpectedTypeError extends Error {
  override name = 'UnexpectedTypeError';
  constructor(value: unknown) {
    const type = typeof value;
    super(`unexpected value of type ${type}: ${type === 'object' ? JSON.stringify(value) : String(value)}`);
  }
}

function inferColumnType(value: unknown): ColumnType {
  switch (typeof value) {
    case 'string':
      return ColumnTypeEnum.Text;
    case 'bigint':
      return ColumnTypeEnum.Int64;
    case 'boolean':
      return ColumnTypeEnum.Boolean;
    case 'number':
      return ColumnTypeEnum.UnknownNumber;
    case 'object':
      if (value instanceof ArrayBuffer) return ColumnTypeEnum.Bytes;
      throw new UnexpectedTypeError(value);
    default:
      throw new UnexpectedTypeError(value);
  }
}

/**
 * Column kinds of a result: declared ones, and for columns without a declared type (computed
 * expressions) the kind of the first non-null value; Int32 where every value is null.
 */
export function getColumnTypes(declaredTypes: Array<string | null>, rows: unknown[][]): ColumnType[] {
  return declaredTypes.map((declared, column) => {
    const mapped = mapDeclType(declared);
    if (mapped !== null) return mapped;
    const row = rows.find((r) => r[column] !== null);
    return row ? inferColumnType(row[column]) : ColumnTypeEnum.Int32;
  });
}

/** One result row as the query compiler expects it (rows are read with safe integers on). */
export function mapRow(row: unknown[], columnTypes: ColumnType[]): unknown[] {
  const result: unknown[] = [];
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    const kind = columnTypes[i];
    if (typeof value === 'number' && (kind === ColumnTypeEnum.Int32 || kind === ColumnTypeEnum.Int64) && !Number.isInteger(value)) {
      result[i] = Math.trunc(value);
    } else if ((typeof value === 'number' || typeof value === 'bigint') && kind === ColumnTypeEnum.DateTime) {
      result[i] = new Date(Number(value)).toISOString();
    } else if (typeof value === 'bigint') {
      const asNumber = Number(value);
      result[i] = Number.isSafeInteger(asNumber) ? asNumber : value.toString();
    } else {
      result[i] = value;
    }
  }
  return result;
}

export type TimestampFormat = 'iso8601' | 'unixepoch-ms';

/** One query argument as SQLite binds it. */
export function mapArg(arg: unknown, argType: ArgType, timestampFormat: TimestampFormat): unknown {
  if (arg === null) return null;
  if (typeof arg === 'string') {
    switch (argType.scalarType) {
      case 'int':
        return Number.parseInt(arg);
      case 'float':
      case 'decimal':
        return Number.parseFloat(arg);
      case 'bigint':
        return BigInt(arg);
      case 'datetime':
        return mapDate(new Date(arg), timestampFormat);
      case 'bytes':
        return Buffer.from(arg, 'base64');
    }
  }
  if (typeof arg === 'boolean') return arg ? 1 : 0;
  if (arg instanceof Date) return mapDate(arg, timestampFormat);
  return arg;
}

function mapDate(date: Date, format: TimestampFormat): number | string {
  return format === 'unixepoch-ms' ? date.getTime() : date.toISOString().replace('Z', '+00:00');
}
