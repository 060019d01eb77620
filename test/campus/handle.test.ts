import { expect, it } from 'vitest';
import { handleError, handleFromText, uniqueHandle } from '../../src/campus/handle.ts';
import { parseDate, parseTimestamp, spacify } from '../../src/campus/validate.ts';

it.each([
  ['My First Post!', 'my_first_post'],
  ['Room 101', 'room_101'],
  ['Example School', 'example_school'],
  ['  2026 Fall: Term ', 'fall--_term'],
  ['Café Menu', 'cafe_menu'],
  ['!!!', ''],
])('handleFromText(%j) → %j', (text, handle) => expect(handleFromText(text)).toBe(handle));

it('numbers duplicates from 2', async () => {
  // More than the exact handles is harmless: only exact matches count.
  const taken = ['post', 'post-2', 'Post-3', 'post-2x'];
  expect(await uniqueHandle('post', async () => taken)).toBe('post-3');
  expect(await uniqueHandle('fresh', async () => taken)).toBe('fresh');
});

it('validates supplied handles', () => {
  expect(handleError('good-handle_1.x')).toBeNull();
  for (const bad of ['123', '1abc', 'has space', 'create']) expect(handleError(bad)).toBe('Handle can only contain letters, numbers, hyphens, and underscores');
});

it('parses Slate dates and timestamps, and spacifies field names', () => {
  expect(parseDate('2024-02-29')).toBe('2024-02-29');
  expect(parseDate('2023-02-29')).toBeUndefined();
  expect(parseDate('0')).toBe('1970-01-01');
  expect(parseTimestamp('1700000000')).toEqual(new Date(1700000000 * 1000));
  expect(parseTimestamp('2026-01-02 03:04:05')).toEqual(new Date('2026-01-02T03:04:05Z'));
  expect(parseTimestamp('yesterday')).toBeUndefined();
  expect(spacify('CourseSectionID')).toBe('Course Section ID');
  expect(spacify('BirthDate')).toBe('Birth Date');
});
