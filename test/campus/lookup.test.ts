// Finding a record by what a URL or filter names (Slate's getRecordByHandle): digits are an ID,
// else the Handle, then a course's or section's Code, a person's Username or email address.
import { beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../src/campus/kinds.ts';
import { findRecord, getRecord, personByUsername, requireRecord } from '../../src/campus/lookup.ts';
import type { CampusRecord } from '../../src/campus/lookup.ts';
import type { Viewer } from '../../src/campus/auth.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { anonymousViewer, campusDeps, record, viewerAt } from '../helpers/campus.ts';

const w = useWorld();
let staff: Viewer;
let algebra: CampusRecord;
let ada: CampusRecord;
let news: CampusRecord;

beforeAll(async () => {
  staff = await viewerAt(w, 'Staff');
  algebra = await record(w, staff, 'Course', { Title: 'Algebra', Code: 'MATH-1' });
  ada = await record(w, staff, 'Person', { FirstName: 'Ada', LastName: 'Lovelace', Username: 'ada', Email: 'ada@example.org' });
  news = await record(w, staff, 'BlogPost', { Title: 'School news', Status: 'Hidden' });
});

const found = async (kind: keyof typeof KINDS, ident: string | number) => (await findRecord(campusDeps(w), KINDS[kind], ident))?.ID ?? null;

describe('findRecord', () => {
  it('reads an all-digit identifier as the ID, given as a number or a string', async () => {
    expect(await found('Course', algebra.ID)).toBe(algebra.ID);
    expect(await found('Course', String(algebra.ID))).toBe(algebra.ID);
  });

  it('finds a course by its generated Handle or its Code', async () => {
    expect(algebra.Handle).toBe('algebra');
    expect(await found('Course', 'algebra')).toBe(algebra.ID);
    expect(await found('Course', 'MATH-1')).toBe(algebra.ID);
  });

  it('prefers the Handle where one course’s Handle is another’s Code', async () => {
    const other = await record(w, staff, 'Course', { Title: 'Geometry', Code: 'algebra' });
    expect(await found('Course', 'algebra')).toBe(algebra.ID);
    expect(await found('Course', other.Handle as string)).toBe(other.ID);
  });

  it('does not look up a Code for kinds that have none', async () => {
    const group = await record(w, staff, 'Group', { Name: 'Chess Club' });
    expect(await found('Group', 'chess_club')).toBe(group.ID);
    expect(await found('Group', 'Chess Club')).toBeNull();
  });

  it('finds a person by Username or email address', async () => {
    expect(await found('Person', 'ada')).toBe(ada.ID);
    expect(await found('Person', 'ada@example.org')).toBe(ada.ID);
    expect(await found('Person', 'nobody@example.org')).toBeNull();
  });

  it('keeps blog posts and pages apart though they share a table', async () => {
    expect(await found('BlogPost', news.ID)).toBe(news.ID);
    expect(await found('Page', news.ID)).toBeNull();
    expect(await found('Page', news.Handle as string)).toBeNull();
  });

  it('names nothing with an ID past 32 bits, NUL, or more than 255 characters, without a query', async () => {
    let statements = 0;
    const stop = w.app.onStatement(() => void statements++);
    try {
      expect(await found('Course', '2147483648')).toBeNull();
      expect(await found('Course', 'MATH\u0000-1')).toBeNull();
      expect(await found('Course', 'x'.repeat(256))).toBeNull();
      expect(await personByUsername(w.app.db, 'a'.repeat(256))).toBeNull();
    } finally {
      stop();
    }
    expect(statements).toBe(0);
  });
});

describe('requireRecord and getRecord', () => {
  it('answer Slate’s "Record not found" for nothing', async () => {
    await expect(requireRecord(campusDeps(w), KINDS.Course, 'no-such-course')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Record not found' });
  });

  it('getRecord applies the read rules: a Hidden post is Staff’s to read', async () => {
    expect((await getRecord(campusDeps(w), staff, KINDS.BlogPost, news.ID)).ID).toBe(news.ID);
    await expect(getRecord(campusDeps(w), anonymousViewer, KINDS.BlogPost, news.ID)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(getRecord(campusDeps(w), await viewerAt(w, 'Student'), KINDS.BlogPost, news.ID)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
