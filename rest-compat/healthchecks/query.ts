// Healthchecks reads its query strings through Django's QueryDict, whose get() answers the
// LAST value of a repeated parameter (`?slug=a&slug=b` is "b"); URLSearchParams.get answers
// the first. Scripts that append a parameter to a URL that already has one rely on Django's.

/** The last value of `name`, or null when absent (Django's `request.GET.get(name)`). */
export function lastParam(query: URLSearchParams, name: string): string | null {
  const all = query.getAll(name);
  return all.length ? all[all.length - 1]! : null;
}
