import { expect, it } from 'vitest';
import { slugify } from '../../../src/monitoring/checks/slugify.ts';

it.each([
  ['Foo', 'foo'],
  ['Nightly Backup', 'nightly-backup'],
  ['  Ünïcödé -- job_1! ', 'unicode-job_1'],
  ['__x__', 'x'],
  ['-_x_-', 'x'],
  ['a   b', 'a-b'],
  ['a - b', 'a-b'],
  ['a\tb\nc', 'a-b-c'],
  ['a_b', 'a_b'],
  ['a__b', 'a__b'],
  ['ﬁle', 'file'], // NFKD splits the ligature
  ['Straße', 'strae'], // ß has no decomposition and is dropped
  ['日本語', ''],
  ['', ''],
  ['Backup (daily) @ 03:00', 'backup-daily-0300'],
  ['a\x1fb', 'a-b'], // Python's \s includes \x1c-\x1f
])('slugify(%j) is %j as in Django', (input, slug) => expect(slugify(input)).toBe(slug));
