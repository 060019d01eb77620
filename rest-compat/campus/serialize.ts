// Slate's JSON for a record: standard fields first (ID, Class, Created, CreatorID, and for
// versioned kinds RevisionID, Modified, ModifierID), then the kind's fields in declaration
// order. Timestamps are Unix seconds, dates "YYYY-MM-DD"; secrets never appear.
import { hasLevel, type KindSpec } from '../../src/campus/kinds.ts';
import type { Viewer } from '../../src/campus/auth.ts';

export const epoch = (d: unknown) => (d instanceof Date ? Math.floor(d.getTime() / 1000) : d ?? null);

export function recordJson(kind: KindSpec, record: Record<string, unknown>, viewer: Viewer): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ID: record.ID,
    Class: record.Class ?? kind.className,
    Created: epoch(record.Created),
    CreatorID: record.CreatorID ?? null,
  };
  if (kind.versioned) {
    out.RevisionID = null;
    out.Modified = epoch(record.Modified);
    out.ModifierID = record.ModifierID ?? null;
  }
  const self = kind.name === 'Person' && viewer.personId === record.ID;
  for (const field of kind.fields) {
    // Staff-only fields are left out for everyone else (a person still sees their own).
    if (field.readLevel && !self && !hasLevel(viewer.level, field.readLevel)) continue;
    const value = record[field.name];
    out[field.name] = field.type === 'timestamp' ? epoch(value) : (value ?? null);
  }
  return out;
}

/** Membership and participation rows (GroupMember, SectionParticipant). */
export function linkJson(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === 'key' || /^[a-z]/.test(k)) continue;
    out[k] = v instanceof Date ? epoch(v) : v;
  }
  return out;
}

/** Slate's phantom record (GET /create): no ID yet, and MySQL's default spelled out for Created. */
export function templateJson(kind: KindSpec, template: Record<string, unknown>, viewer: Viewer): Record<string, unknown> {
  return { ...recordJson(kind, template, viewer), ID: null, Created: 'CURRENT_TIMESTAMP' };
}
