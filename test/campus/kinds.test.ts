// The table of the eight kinds: levels are ordinal, every kind is reachable by its prefix, and
// the table is consistent with itself (references, defaults, handles, trees).
import { describe, expect, it } from 'vitest';
import { ACCOUNT_LEVELS, hasLevel, KIND_LIST, KINDS, kindByPrefix } from '../../src/campus/kinds.ts';

describe('hasLevel', () => {
  it('orders the levels as Slate does: Disabled < Contact < User < Student < Staff < Teacher < Administrator < Developer', () => {
    expect(ACCOUNT_LEVELS).toEqual(['Disabled', 'Contact', 'User', 'Student', 'Staff', 'Teacher', 'Administrator', 'Developer']);
    expect(hasLevel('Staff', 'Staff')).toBe(true);
    expect(hasLevel('Teacher', 'Staff')).toBe(true);
    expect(hasLevel('Developer', 'Administrator')).toBe(true);
    expect(hasLevel('Student', 'Staff')).toBe(false);
    expect(hasLevel('Contact', 'User')).toBe(false);
  });

  it('gives nobody (no level) nothing', () => {
    expect(hasLevel(null, 'Disabled')).toBe(false);
    expect(hasLevel(undefined, 'User')).toBe(false);
    expect(hasLevel('', 'User')).toBe(false);
  });
});

describe('the kind table', () => {
  it('holds the ten kinds, each found by its REST prefix', () => {
    expect(KIND_LIST.map((k) => [k.prefix, k.name])).toEqual([
      ['people', 'Person'],
      ['sections', 'Section'],
      ['courses', 'Course'],
      ['blog', 'BlogPost'],
      ['pages', 'Page'],
      ['groups', 'Group'],
      ['locations', 'Location'],
      ['terms', 'Term'],
      ['departments', 'Department'],
      ['schedules', 'Schedule'],
    ]);
    for (const kind of KIND_LIST) expect(kindByPrefix(kind.prefix)).toBe(kind);
    expect(kindByPrefix('checks')).toBeUndefined();
  });

  it('points every reference at a kind, and every tree kind’s ParentID at itself', () => {
    for (const kind of KIND_LIST) {
      for (const f of kind.fields.filter((f) => f.ref)) expect(KINDS[f.ref!], `${kind.name}.${f.name}`).toBeDefined();
      const parent = kind.fields.find((f) => f.name === 'ParentID');
      expect(Boolean(kind.tree), kind.name).toBe(Boolean(parent));
      if (parent) expect(parent.ref).toBe(kind.name);
    }
  });

  it('generates a handle from a field the kind has, except for people (who have usernames)', () => {
    for (const kind of KIND_LIST) {
      if (kind.name === 'Person') expect(kind.handleFrom).toBeNull();
      else expect(kind.fields.map((f) => f.name)).toContain(kind.handleFrom);
    }
  });

  it('gives enums defaults from their own values (Status Live, Visibility Public)', () => {
    for (const kind of KIND_LIST) {
      for (const f of kind.fields.filter((f) => f.default !== undefined)) expect(f.values, `${kind.name}.${f.name}`).toContain(f.default);
    }
    expect(KINDS.BlogPost.fields.find((f) => f.name === 'Visibility')?.default).toBe('Public');
    expect(KINDS.Term.fields.find((f) => f.name === 'Status')?.default).toBe('Live');
  });

  it('lets Users create blog posts while Staff write everything else', () => {
    expect(KIND_LIST.filter((k) => k.access.create).map((k) => [k.name, k.access.create])).toEqual([['BlogPost', 'User']]);
    for (const kind of KIND_LIST) expect(kind.access.write).toBe('Staff');
  });
});
