// Django's slugify, which Healthchecks uses to derive a check's slug from its name (API v1/v2).
// Python's `\s` also matches \x1c-\x1f (str.isspace) where JS's does not, so the whitespace
// set is spelled out: such characters become '-' as in Django instead of vanishing.
export function slugify(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '') // encode('ascii', 'ignore')
    .toLowerCase()
    .replace(/[^\w\t\n\v\f\r\x1c-\x1f -]/g, '')
    .replace(/[-\t\n\v\f\r\x1c-\x1f ]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}
