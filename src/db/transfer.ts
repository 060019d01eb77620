// Moving a gateway's data between databases (`gateway export` / `gateway import`): from the
// embedded SQLite file to PostgreSQL when one machine is outgrown, or back. The dump is JSON
// Lines: a header naming the data model's fingerprint, then one row per line, models in an
// order where every row's references come before it. Rows stream in pages, so a database far
// larger than memory moves. Walked generically from Prisma's datamodel: a new model moves with
// no change here.
import { createHash } from 'node:crypto';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { Db } from './client.ts';
import type { Provider } from './provider.ts';

export const DUMP_FORMAT = 'cron-campus-gateway-dump';
const PAGE = 1000;
const INSERT_CHUNK = 500;

interface Field {
  name: string;
  type: string;
  kind: string;
  isId?: boolean;
  hasDefaultValue?: boolean;
  relationFromFields?: string[];
}

export interface TransferModel {
  name: string;
  /** The Prisma client property (`CheckChannel` → `checkChannel`). */
  delegate: string;
  scalars: Array<{ name: string; type: string }>;
  /** Primary key fields, in order. */
  key: string[];
  /** The field pointing at a parent row of the same model (campus trees), if any. */
  selfParent: string | null;
  /** The autoincrement id column, whose sequence must move past the imported ids. */
  serialId: string | null;
}

type DatamodelModels = Record<string, { fields: Field[]; primaryKey: { fields: string[] } | null }>;

/** Every model, each after the models it references. */
export function transferModels(): TransferModel[] {
  const models = (getDatamodel() as unknown as { datamodel: { models: DatamodelModels } }).datamodel.models;
  const info = new Map<string, TransferModel & { needs: Set<string> }>();
  for (const [name, m] of Object.entries(models)) {
    const scalars = m.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum').map((f) => ({ name: f.name, type: f.type }));
    const references = m.fields.filter((f) => f.kind === 'object' && f.relationFromFields?.length);
    const self = references.find((f) => f.type === name);
    const idField = m.fields.find((f) => f.isId);
    info.set(name, {
      name,
      delegate: name[0]!.toLowerCase() + name.slice(1),
      scalars,
      key: m.primaryKey?.fields ?? [idField!.name],
      selfParent: self?.relationFromFields?.[0] ?? null,
      serialId: idField && idField.type === 'Int' && idField.hasDefaultValue ? idField.name : null,
      needs: new Set(references.map((f) => f.type).filter((t) => t !== name)),
    });
  }
  const ordered: TransferModel[] = [];
  const placed = new Set<string>();
  while (placed.size < info.size) {
    const ready = [...info.values()].filter((m) => !placed.has(m.name) && [...m.needs].every((n) => placed.has(n)));
    if (!ready.length) throw new Error('the data model has a reference cycle between models');
    for (const { needs: _needs, ...m } of ready) {
      ordered.push(m);
      placed.add(m.name);
    }
  }
  return ordered;
}

/** Changes whenever a model, field or type changes: a dump only loads into the same model. */
export function modelFingerprint(models = transferModels()): string {
  const text = models.map((m) => `${m.name}(${m.scalars.map((s) => `${s.name}:${s.type}`).join(',')})`).join(';');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

type Row = Record<string, unknown>;
type Delegate = {
  findMany(args: object): Promise<Row[]>;
  count(): Promise<number>;
  createMany(args: { data: Row[] }): Promise<unknown>;
};
const delegateOf = (db: Db, m: TransferModel) => (db as unknown as Record<string, Delegate>)[m.delegate]!;

function encode(m: TransferModel, row: Row): Row {
  const out: Row = {};
  for (const { name, type } of m.scalars) {
    const v = row[name];
    if (v === null || v === undefined) out[name] = null;
    else if (type === 'DateTime') out[name] = { $date: (v as Date).toISOString() };
    else if (type === 'Bytes') out[name] = { $bytes: Buffer.from(v as Uint8Array).toString('base64') };
    else out[name] = v;
  }
  return out;
}

function decode(m: TransferModel, row: Row, line: number): Row {
  const out: Row = {};
  for (const { name, type } of m.scalars) {
    const v = row[name];
    if (v === null || v === undefined) continue;
    if (type === 'DateTime') out[name] = new Date((v as { $date: string }).$date);
    else if (type === 'Bytes') out[name] = Buffer.from((v as { $bytes: string }).$bytes, 'base64');
    else out[name] = v;
    if (out[name] instanceof Date && Number.isNaN((out[name] as Date).getTime())) throw new Error(`line ${line}: ${m.name}.${name} is not a date`);
  }
  return out;
}

/** The dump, line by line (each without its newline). */
export async function* exportLines(db: Db): AsyncGenerator<string> {
  const models = transferModels();
  yield JSON.stringify({ format: DUMP_FORMAT, version: 1, model: modelFingerprint(models), models: models.map((m) => m.name) });
  for (const m of models) {
    const orderBy = m.key.map((k) => ({ [k]: 'asc' }));
    let last: Row | null = null;
    for (;;) {
      const cursor = last && (m.key.length === 1 ? { [m.key[0]!]: last[m.key[0]!] } : { [m.key.join('_')]: Object.fromEntries(m.key.map((k) => [k, last![k]])) });
      const page = await delegateOf(db, m).findMany({ orderBy, take: PAGE, ...(cursor ? { cursor, skip: 1 } : {}) });
      for (const row of page) yield JSON.stringify({ m: m.name, r: encode(m, row) });
      if (page.length < PAGE) break;
      last = page[page.length - 1]!;
    }
  }
}

export class DumpError extends Error {}

/** Parents before children: the rows of a self-referencing model in tree order. */
function treeOrder(m: TransferModel, rows: Row[]): Row[] {
  const id = m.key[0]!;
  const parent = m.selfParent!;
  const byParent = new Map<unknown, Row[]>();
  const ids = new Set(rows.map((r) => r[id]));
  for (const r of rows) {
    const p = r[parent] ?? null;
    if (p !== null && !ids.has(p)) throw new DumpError(`${m.name} ${String(r[id])}: its parent ${String(p)} is not in the dump`);
    byParent.set(p, [...(byParent.get(p) ?? []), r]);
  }
  const out: Row[] = [];
  const queue = [...(byParent.get(null) ?? [])];
  while (queue.length) {
    const r = queue.shift()!;
    out.push(r);
    queue.push(...(byParent.get(r[id]) ?? []));
  }
  if (out.length !== rows.length) throw new DumpError(`${m.name}: the parent links form a cycle`);
  return out;
}

/**
 * Loads a dump into an empty, migrated database. Refuses a database that holds any row (an
 * import never merges) and a dump of another data model. Returns the rows loaded per model.
 */
export async function importLines(db: Db, provider: Provider, lines: AsyncIterable<string>): Promise<Record<string, number>> {
  const models = transferModels();
  const byName = new Map(models.map((m) => [m.name, m]));
  for (const m of models) {
    if ((await delegateOf(db, m).count()) > 0) throw new DumpError(`the target database is not empty (${m.name} has rows): import only into a new database`);
  }
  const counts: Record<string, number> = {};
  let header = false;
  let lineNo = 0;
  let current: TransferModel | null = null;
  let buffer: Row[] = [];
  const seen = new Set<string>();
  const flush = async () => {
    if (!current || !buffer.length) return;
    const rows = current.selfParent ? treeOrder(current, buffer) : buffer;
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await delegateOf(db, current).createMany({ data: rows.slice(i, i + INSERT_CHUNK) });
    counts[current.name] = (counts[current.name] ?? 0) + rows.length;
    buffer = [];
  };
  for await (const text of lines) {
    lineNo++;
    if (!text.trim()) continue;
    let parsed: { format?: string; version?: number; model?: string; m?: string; r?: Row };
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new DumpError(`line ${lineNo}: not JSON`);
    }
    if (!header) {
      if (parsed.format !== DUMP_FORMAT || parsed.version !== 1) throw new DumpError('not a gateway dump (made by `gateway export`)');
      if (parsed.model !== modelFingerprint(models)) throw new DumpError('the dump is of another version of the data model: export and import with the same gateway version');
      header = true;
      continue;
    }
    const m = byName.get(parsed.m ?? '');
    if (!m || typeof parsed.r !== 'object' || parsed.r === null) throw new DumpError(`line ${lineNo}: not a row of a known model`);
    if (m !== current) {
      if (seen.has(m.name)) throw new DumpError(`line ${lineNo}: rows of ${m.name} are not together`);
      await flush();
      current = m;
      seen.add(m.name);
    }
    buffer.push(decode(m, parsed.r, lineNo));
    // Tree models are ordered as a whole; others go in chunks as they come.
    if (!m.selfParent && buffer.length >= INSERT_CHUNK) await flush();
  }
  await flush();
  if (!header) throw new DumpError('empty dump');
  // Rows came with their ids: move each id sequence past them, or the next insert collides.
  if (provider === 'postgresql') {
    for (const m of models.filter((x) => x.serialId)) {
      await db.$executeRawUnsafe(
        `SELECT setval(pg_get_serial_sequence('"${m.name}"', '${m.serialId}'), COALESCE((SELECT MAX("${m.serialId}") FROM "${m.name}"), 0) + 1, false)`,
      );
    }
  }
  return counts;
}
