// Slate's CSV response mode for a browse (RequestHandler::respondCsv → CSV::respond): chosen by
// `?format=csv`, an Accept header of exactly `text/csv`, or the `csv` path segment
// (`/people/csv`); answered as `text/csv; charset=utf-8` with
// `Content-Disposition: attachment; filename="<responseID>.csv"`. The rows are the same
// browse as the JSON one (access, filters, search, sort, `limit`/`offset`), one row per record.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Viewer } from '../../src/campus/viewer.ts';
import type { KindSpec } from '../../src/campus/kinds.ts';
import { csvColumns } from '../../src/campus/csv-columns.ts';
import { requireShortText } from '../../src/campus/limits.ts';
import * as records from '../../src/campus/service.ts';
import type { CampusDeps } from '../../src/campus/service.ts';
import { browseOptions } from './browse.ts';
import { recordJson } from './serialize.ts';
import type { Route } from './handler.ts';

/** A reply that is not JSON: route() in routes.ts writes it as it is. */
export class RawReply {
  constructor(
    readonly body: string,
    readonly headers: Record<string, string>,
  ) {}

  send(res: ServerResponse) {
    const bytes = Buffer.from(this.body, 'utf8');
    res.writeHead(200, { ...this.headers, 'Content-Length': bytes.length });
    res.end(bytes);
  }
}

/**
 * Slate's getResponseMode: a `format` that is one of the handler's modes wins; otherwise an
 * Accept header that is exactly a known type (`text/csv`; a list of types is not).
 */
export function wantsCsv(req: IncomingMessage, query: URLSearchParams): boolean {
  const format = query.get('format');
  if (format === 'csv' || format === 'json') return format === 'csv';
  return req.headers.accept === 'text/csv';
}

/** Slate's response ID for a browse: the plural noun in camel case (`people`, `courseSections`, `blogPosts`). */
export function browseResponseId(kind: KindSpec): string {
  const plural = kind.name === 'Person' ? 'people' : `${kind.noun}s`;
  return plural.replace(/\s+([a-zA-Z])/g, (_, c: string) => c.toUpperCase());
}

// Spreadsheets run a cell that starts with one of these as a formula (CSV injection); a
// leading apostrophe makes it text. Only text values are guarded: numbers stay numbers.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell, per RFC 4180: quoted when it holds a quote, comma or line break, quotes doubled. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'boolean' ? (value ? '1' : '') : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells, each line ended with CRLF (RFC 4180). */
export const csvText = (rows: unknown[][]) => rows.map((row) => row.map(csvCell).join(',') + '\r\n').join('');

/** `?columns=FirstName,LastName` (Slate's CSV::getColumns): names, comma-separated. */
function requestedColumns(query: URLSearchParams): string[] {
  const raw = query.get('columns');
  if (!raw) return [];
  requireShortText('columns', raw, 2000);
  return raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** The browse `query` asks for, as Slate's CSV: a header row of labels, then one row per record. */
export async function browseCsv(deps: CampusDeps, viewer: Viewer, kind: KindSpec, query: URLSearchParams): Promise<RawReply> {
  // Columns first: a bad `columns=` is refused before the database is asked anything.
  const columns = csvColumns(kind, viewer, requestedColumns(query));
  const result = await records.browseRecords(deps, viewer, kind, browseOptions(kind, query));
  const rows = result.records.map((record) => {
    const json = recordJson(kind, record, viewer);
    return columns.map((c) => json[c.name]);
  });
  const id = browseResponseId(kind);
  return new RawReply(csvText([columns.map((c) => c.label), ...rows]), {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${id}.csv"`,
    'X-Response-ID': id,
  });
}

/** `/<prefix>/csv`: Slate reads a `csv` segment after the prefix as the response mode. */
export function registerCsvRoutes(route: Route, deps: CampusDeps, kinds: readonly KindSpec[]) {
  for (const kind of kinds) route(['GET', 'POST'], `/${kind.prefix}/csv`, ({ viewer, query }) => browseCsv(deps, viewer, kind, query));
}
