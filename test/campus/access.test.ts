// Slate's access rules as pure functions of (kind, viewer, record, now): anonymous callers are
// asked to log in (401), logged-in callers below the level refused (403), hidden content shown
// to its author and Staff only.
import { describe, expect, it } from 'vitest';
import { ACCESS_DENIED, canRead, LOGIN_REQUIRED, publicFilter, requireLevel, requireReadable, requireWritable } from '../../src/campus/access.ts';
import { KINDS } from '../../src/campus/kinds.ts';
import type { Viewer } from '../../src/campus/auth.ts';

const now = new Date('2026-01-05T10:00:00Z');
const nobody: Viewer = { personId: null, level: null };
const student: Viewer = { personId: 7, level: 'Student' };
const user: Viewer = { personId: 8, level: 'User' };
const staff: Viewer = { personId: 9, level: 'Staff' };

const refusal = (work: () => void) => {
  try {
    work();
    return 'allowed';
  } catch (err) {
    const e = err as { code: string; message: string };
    return `${e.code}: ${e.message}`;
  }
};

describe('requireLevel', () => {
  it('lets anyone through a null level', () => {
    expect(refusal(() => requireLevel(nobody, null))).toBe('allowed');
  });

  it('asks an anonymous caller to log in, and refuses a logged-in one below the level', () => {
    expect(refusal(() => requireLevel(nobody, 'User'))).toBe(`UNAUTHENTICATED: ${LOGIN_REQUIRED}`);
    expect(refusal(() => requireLevel(student, 'Staff'))).toBe(`FORBIDDEN: ${ACCESS_DENIED}`);
    expect(refusal(() => requireLevel(staff, 'Staff'))).toBe('allowed');
    expect(refusal(() => requireLevel(staff, 'Student'))).toBe('allowed');
  });
});

describe('publicFilter', () => {
  it('shows Staff everything', () => {
    expect(publicFilter(KINDS.BlogPost, staff, now)).toEqual({});
  });

  it('shows others Live, published content, and only Public content to anonymous callers', () => {
    expect(publicFilter(KINDS.BlogPost, user, now)).toEqual({ Status: 'Live', OR: [{ Published: null }, { Published: { lte: now } }] });
    expect(publicFilter(KINDS.Page, nobody, now)).toEqual({ Status: 'Live', OR: [{ Published: null }, { Published: { lte: now } }], Visibility: 'Public' });
  });

  it('filters kinds with a Status by it, and people (who have none) not at all', () => {
    expect(publicFilter(KINDS.Course, nobody, now)).toEqual({ Status: 'Live' });
    expect(publicFilter(KINDS.Person, nobody, now)).toEqual({});
  });
});

describe('requireReadable and canRead', () => {
  const post = { ID: 1, AuthorID: 8, Status: 'Live', Published: null, Visibility: 'Public' };

  it('lets anyone read a Live, published, Public post', () => {
    expect(canRead(KINDS.BlogPost, nobody, post, now)).toBe(true);
  });

  it('hides a Private post from anonymous callers (401) but not from users', () => {
    const priv = { ...post, Visibility: 'Private' };
    expect(refusal(() => requireReadable(KINDS.BlogPost, nobody, priv, now))).toBe(`UNAUTHENTICATED: ${LOGIN_REQUIRED}`);
    expect(canRead(KINDS.BlogPost, student, priv, now)).toBe(true);
  });

  it('hides a post published in the future, or not Live, from all but its author and Staff', () => {
    for (const hidden of [{ ...post, Published: new Date(now.getTime() + 1000) }, { ...post, Status: 'Hidden' }]) {
      expect(refusal(() => requireReadable(KINDS.BlogPost, student, hidden, now))).toBe(`FORBIDDEN: ${ACCESS_DENIED}`);
      expect(canRead(KINDS.BlogPost, user, hidden, now)).toBe(true);
      expect(canRead(KINDS.BlogPost, staff, hidden, now)).toBe(true);
    }
    expect(canRead(KINDS.BlogPost, student, { ...post, Published: now }, now)).toBe(true);
  });

  it('needs the kind’s read level first: groups are for users', () => {
    const group = { ID: 3, Name: 'School', Status: 'Live' };
    expect(refusal(() => requireReadable(KINDS.Group, nobody, group, now))).toBe(`UNAUTHENTICATED: ${LOGIN_REQUIRED}`);
    expect(canRead(KINDS.Group, student, group, now)).toBe(true);
    expect(canRead(KINDS.Group, student, { ...group, Status: 'Hidden' }, now)).toBe(false);
    expect(canRead(KINDS.Group, staff, { ...group, Status: 'Hidden' }, now)).toBe(true);
  });

  it('lets a non-author not read a Hidden page even as its would-be author when AuthorID is null', () => {
    const orphan = { ...post, AuthorID: null, Status: 'Hidden' };
    expect(canRead(KINDS.Page, { personId: null, level: 'User' }, orphan, now)).toBe(false);
  });
});

describe('requireWritable', () => {
  const post = { ID: 1, AuthorID: 8 };

  it('lets a User create a blog post, but not a course', () => {
    expect(refusal(() => requireWritable(KINDS.BlogPost, user, null))).toBe('allowed');
    expect(refusal(() => requireWritable(KINDS.Course, user, null))).toBe(`FORBIDDEN: ${ACCESS_DENIED}`);
    expect(refusal(() => requireWritable(KINDS.BlogPost, nobody, null))).toBe(`UNAUTHENTICATED: ${LOGIN_REQUIRED}`);
  });

  it('lets the author edit their post, others only at the write level (Staff)', () => {
    expect(refusal(() => requireWritable(KINDS.BlogPost, user, post))).toBe('allowed');
    expect(refusal(() => requireWritable(KINDS.BlogPost, student, post))).toBe(`FORBIDDEN: ${ACCESS_DENIED}`);
    expect(refusal(() => requireWritable(KINDS.BlogPost, staff, post))).toBe('allowed');
  });

  it('gives pages (no create level) no author exception', () => {
    expect(refusal(() => requireWritable(KINDS.Page, user, post))).toBe(`FORBIDDEN: ${ACCESS_DENIED}`);
  });
});
