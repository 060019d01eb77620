// The settings of a public status page, shared by GraphQL and the CLI: a slug that is safe in
// a URL path and tags as checks store them (single words, matched exactly).
import { validationError } from '../../shared/errors.ts';
import { holdsNul, NUL_REFUSED } from '../../shared/stored-text.ts';

export interface StatusPageSettings {
  slug: string;
  /** Checks having any of these tags are listed; empty lists every check. */
  tags: string[];
}

export const SLUG_MAX = 64;
export const TAGS_MAX = 20;
const TAG_MAX = 50;
// Lower case, digits and inner hyphens: the same page for every spelling a user might type.
const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

export function parseStatusPageSettings(input: { slug: string; tags?: readonly string[] | null }): StatusPageSettings {
  const slug = input.slug.trim();
  if (!SLUG.test(slug) || slug.length > SLUG_MAX) {
    throw validationError(`slug must be 1 to ${SLUG_MAX} lower-case letters, digits or inner hyphens`);
  }
  const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))];
  if (tags.length > TAGS_MAX) throw validationError(`at most ${TAGS_MAX} tags`);
  // Checks store tags space-separated, so a tag with a space could never match.
  for (const tag of tags) if (holdsNul(tag)) throw validationError(NUL_REFUSED('a tag'));
  for (const tag of tags) if (/\s/.test(tag) || tag.length > TAG_MAX) throw validationError(`tag must be one word of at most ${TAG_MAX} characters: ${tag}`);
  return { slug, tags };
}
