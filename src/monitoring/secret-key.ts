// The installation's SECRET_KEY (Healthchecks' name): what signs badge URLs, and whatever else
// must verify tomorrow what was signed today. The SECRET_KEY setting wins; unset, the
// installation makes its own once and keeps it in the database, so every instance on the
// database and every restart signs alike (a per-process random secret would break every
// published badge URL at the next restart).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';

const NAME = 'SECRET_KEY';

// Once read or made, the row never changes: one look-up per database client and process.
const known = new WeakMap<Db, Promise<string>>();

/** `configured` (the SECRET_KEY setting) or the installation's own secret, made on first need. */
export function secretKey(db: Db, configured: string | null | undefined): Promise<string> {
  if (configured) return Promise.resolve(configured);
  let secret = known.get(db);
  if (!secret) {
    secret = installationSecret(db);
    known.set(db, secret);
    // A failed read (database away) is not remembered: the next request tries again.
    secret.catch(() => known.delete(db));
  }
  return secret;
}

async function installationSecret(db: Db): Promise<string> {
  const found = await db.installationSecret.findUnique({ where: { name: NAME } });
  if (found) return found.value;
  // 50 characters like Django's get_random_secret_key (URL-safe base64 of 300 random bits).
  const value = randomBytes(38).toString('base64url').slice(0, 50);
  try {
    await db.installationSecret.create({ data: { name: NAME, value } });
    return value;
  } catch (err) {
    // Two instances starting together: the first insert wins and both use its value.
    if ((err as { code?: string }).code !== 'P2002') throw err;
    return (await db.installationSecret.findUniqueOrThrow({ where: { name: NAME } })).value;
  }
}
