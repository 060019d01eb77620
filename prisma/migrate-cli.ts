// `npm run migrate`: applies prisma/migrations/ to DATABASE_URL (the server also does this at start).
import { loadConfig } from '../src/config/index.ts';
import { migrate } from '../src/db/migrate.ts';

const config = loadConfig();
const applied = await migrate(config.databaseUrl);
console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
