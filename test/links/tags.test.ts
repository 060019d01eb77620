// The campus:<kind>/<identifier> tag convention, as pure functions.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/campus/kinds.ts';
import { identCandidates, parseRecordTag, recordTag, recordTagsOf, withoutTags, withTag } from '../../src/links/tags.ts';

describe('parseRecordTag', () => {
  it('reads the kind and the identifier of each of the eight kinds', () => {
    expect(parseRecordTag('campus:section/MATH-001')).toEqual({ tag: 'campus:section/MATH-001', kind: 'Section', ident: 'MATH-001' });
    const kinds = ['person', 'section', 'course', 'blogpost', 'page', 'group', 'location', 'term'].map((k) => parseRecordTag(`campus:${k}/x`)?.kind);
    expect(kinds).toEqual(['Person', 'Section', 'Course', 'BlogPost', 'Page', 'Group', 'Location', 'Term']);
  });

  it('keeps everything after the first slash as the identifier (emails, slashes)', () => {
    expect(parseRecordTag('campus:person/ada@example.org')?.ident).toBe('ada@example.org');
    expect(parseRecordTag('campus:page/a/b')?.ident).toBe('a/b');
  });

  it('leaves other tags ordinary: another prefix, an unknown or upper-case kind, no identifier', () => {
    for (const tag of ['prod', 'campus', 'campus:', 'campus:section', 'campus:section/', 'campus:/x', 'campus:room/101', 'campus:Section/MATH-001', 'Campus:section/MATH-001', 'xcampus:section/a']) {
      expect(parseRecordTag(tag)).toBeNull();
    }
  });
});

describe('recordTagsOf', () => {
  it('picks the record tags out of a space-separated list, each once, in order', () => {
    expect(recordTagsOf('prod  campus:course/MATH campus:term/fall campus:course/MATH db').map((t) => t.tag)).toEqual(['campus:course/MATH', 'campus:term/fall']);
    expect(recordTagsOf('')).toEqual([]);
  });
});

describe('writing tags', () => {
  it('spells a tag from a kind and an identifier', () => {
    expect(recordTag('BlogPost', 12)).toBe('campus:blogpost/12');
  });

  it('offers a code, then the handle, then a username, then the ID; never a value with spaces', () => {
    expect(identCandidates(KINDS.Section, { ID: 3, Code: 'MATH-001', Handle: 'algebra-1' })).toEqual(['MATH-001', 'algebra-1', '3']);
    expect(identCandidates(KINDS.Person, { ID: 4, Username: 'ada' })).toEqual(['ada', '4']);
    expect(identCandidates(KINDS.Person, { ID: 5, Username: null })).toEqual(['5']);
    expect(identCandidates(KINDS.Group, { ID: 6, Handle: 'has space' })).toEqual(['6']);
  });

  it('adds a tag once and removes tags, normalising the spacing', () => {
    expect(withTag('prod  db', 'campus:term/fall')).toBe('prod db campus:term/fall');
    expect(withTag('campus:term/fall', 'campus:term/fall')).toBe('campus:term/fall');
    expect(withTag('', 'campus:term/fall')).toBe('campus:term/fall');
    expect(withoutTags(' prod campus:term/fall  db ', new Set(['campus:term/fall']))).toBe('prod db');
  });
});
