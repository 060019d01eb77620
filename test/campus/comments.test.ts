// Comments on any record (Slate's context children): who may comment, what a message may be,
// and comments of many records loaded at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { addComment, commentsOf } from '../../src/campus/comments.ts';
import { KINDS } from '../../src/campus/kinds.ts';
import { COMMENT_MAX_CHARS } from '../../src/campus/limits.ts';
import type { CampusRecord } from '../../src/campus/lookup.ts';
import type { Viewer } from '../../src/campus/auth.ts';
import { RecordValidationError } from '../../src/shared/errors.ts';
import { T0 } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { anonymousViewer, campusDeps, record, viewerAt } from '../helpers/campus.ts';

const w = useWorld();
let staff: Viewer;
let user: Viewer;
let post: CampusRecord;
let hidden: CampusRecord;

beforeAll(async () => {
  staff = await viewerAt(w, 'Staff');
  user = await viewerAt(w, 'User');
  post = await record(w, staff, 'BlogPost', { Title: 'Welcome' });
  hidden = await record(w, staff, 'BlogPost', { Title: 'Draft', Status: 'Hidden' });
});

describe('addComment', () => {
  it('stores the trimmed message against the record, by the viewer, at the clock’s time', async () => {
    const c = await addComment(campusDeps(w), user, KINDS.BlogPost, post.Handle as string, '  Nice!  ');
    expect(c).toMatchObject({ ContextClass: 'Emergence\\CMS\\BlogPost', ContextID: post.ID, Message: 'Nice!', CreatorID: user.personId, Created: T0 });
    expect(c.Handle).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('wants a login, and a record the viewer may read', async () => {
    await expect(addComment(campusDeps(w), anonymousViewer, KINDS.BlogPost, post.ID, 'hi')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(addComment(campusDeps(w), user, KINDS.BlogPost, hidden.ID, 'hi')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(addComment(campusDeps(w), user, KINDS.BlogPost, 'no-such-post', 'hi')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a blank, non-text, NUL-holding or overlong message with Slate’s field errors', async () => {
    const errorsOf = async (message: unknown) => {
      const err = await addComment(campusDeps(w), user, KINDS.BlogPost, post.ID, message).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(RecordValidationError);
      return (err as RecordValidationError).fields;
    };
    expect(await errorsOf('   ')).toEqual({ Message: 'You must provide a message.' });
    expect(await errorsOf(42)).toEqual({ Message: 'You must provide a message.' });
    expect(await errorsOf('a\u0000b')).toEqual({ Message: 'Message is invalid.' });
    expect(await errorsOf('x'.repeat(COMMENT_MAX_CHARS + 1))).toEqual({ Message: 'Message is too long.' });
    expect((await addComment(campusDeps(w), user, KINDS.BlogPost, post.ID, 'x'.repeat(COMMENT_MAX_CHARS))).Message).toHaveLength(COMMENT_MAX_CHARS);
  });
});

describe('commentsOf', () => {
  it('gives each record its own comments, newest first, and an empty list to one without', async () => {
    const course = await record(w, staff, 'Course', { Title: 'Algebra', Code: 'MATH-1' });
    await addComment(campusDeps(w), staff, KINDS.Course, course.ID, 'first');
    await addComment(campusDeps(w), staff, KINDS.Course, course.ID, 'second');
    const other = await record(w, staff, 'Course', { Title: 'Biology', Code: 'BIO-1' });
    const byRecord = await commentsOf(campusDeps(w), KINDS.Course, [course, other]);
    expect((byRecord.get(course.ID) as Array<{ Message: string }>).map((c) => c.Message)).toEqual(['second', 'first']);
    expect(byRecord.get(other.ID)).toEqual([]);
  });

  it('does not mix kinds sharing an ID', async () => {
    const byRecord = await commentsOf(campusDeps(w), KINDS.Page, [{ ID: post.ID }]);
    expect(byRecord.get(post.ID)).toEqual([]);
  });
});
