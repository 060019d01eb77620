// Connection URLs carry credentials (postgresql://user:password@host/db, redis://:password@host,
// or a password in the query). Anything that logs or reports such a URL shows it through here.

const SECRET_PARAM = /pass|secret|token|key/i;
const MASK = '***';

/** The URL with its password (and secret-looking query values) replaced by ***; else as given. */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // Not a URL we can parse (a typo in DATABASE_URL): mask whatever sits between "user:" and "@".
    return url.replace(/(\/\/[^/@:]*:)[^@]*@/, `$1${MASK}@`);
  }
  const secrets = [...u.searchParams.keys()].filter((k) => SECRET_PARAM.test(k));
  // Untouched URLs are returned as written: re-serializing would rewrite e.g. file:./data.db.
  if (!u.password && secrets.length === 0) return url;
  if (u.password) u.password = MASK;
  for (const k of secrets) u.searchParams.set(k, MASK);
  // URL percent-encodes the mask; readers want to see it plainly.
  return u.toString().replaceAll('%2A%2A%2A', MASK);
}
