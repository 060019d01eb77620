// The command a shell channel runs, after Healthchecks' Shell.prepare: $CODE, $STATUS, $NOW,
// $NAME, $TAGS and $TAG1, $TAG2… replaced in the template, the name and tags shell-quoted
// (shlex.quote) so a check named "a&b" cannot run a second command. The same values, unquoted,
// are in the command's environment (our addition: a script can read them without parsing).
import { tagList } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

/** Python's shlex.quote: safe text as it is, anything else in single quotes ('' for nothing). */
export function shellQuote(s: string): string {
  if (s === '') return "''";
  if (!/[^\w@%+=:,./-]/.test(s)) return s;
  return `'${s.replaceAll("'", `'"'"'`)}'`;
}

/**
 * Healthchecks' hc.lib.string.replace: each "$" starts a part, and the first placeholder (in the
 * context's order) a part starts with is replaced once. A value that itself holds "$NAME" is not
 * replaced again; "$TAG10" is $TAG1 followed by "0", as in Healthchecks.
 */
export function replacePlaceholders(template: string, ctx: ReadonlyArray<readonly [string, string]>): string {
  const [first = '', ...parts] = template.split('$');
  return (
    first +
    parts
      .map((rest) => {
        const part = `$${rest}`;
        const hit = ctx.find(([placeholder]) => part.startsWith(placeholder));
        return hit ? hit[1] + part.slice(hit[0].length) : part;
      })
      .join('')
  );
}

/** Python's datetime.isoformat() of an aware UTC time without microseconds: 2026-01-05T10:00:00+00:00. */
const isoSeconds = (at: Date) => `${at.toISOString().slice(0, 19)}+00:00`;

/** The placeholders' values, raw (the environment's) and as substituted (name and tags quoted). */
export function shellVariables(d: Pick<Delivery, 'check' | 'status' | 'at'>): { env: Record<string, string>; ctx: Array<[string, string]> } {
  const check = d.check;
  const tags = tagList(check.tags);
  const env: Record<string, string> = { CODE: check.code, STATUS: d.status, NOW: isoSeconds(d.at), NAME: check.name, TAGS: check.tags };
  tags.forEach((tag, i) => (env[`TAG${i + 1}`] = tag));
  const quoted = new Set(['NAME', 'TAGS', ...tags.map((_, i) => `TAG${i + 1}`)]);
  const ctx = Object.entries(env).map(([k, v]): [string, string] => [`$${k}`, quoted.has(k) ? shellQuote(v) : v]);
  return { env, ctx };
}

/** The command for the delivery's status, ready for /bin/sh -c, and its environment's additions. */
export function prepareCommand(template: string, d: Pick<Delivery, 'check' | 'status' | 'at'>): { command: string; env: Record<string, string> } {
  const { env, ctx } = shellVariables(d);
  return { command: replacePlaceholders(template, ctx), env };
}
