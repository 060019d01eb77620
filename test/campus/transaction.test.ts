// The campus write transaction: everything in it commits together; events wait for the commit;
// a batch item refused after it wrote is undone on its own (savepoint), a fault ends the batch.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/fixtures.ts';
import type { CampusDeps } from '../../src/campus/lookup.ts';
import { afterCommit, batchItem, writeTransaction } from '../../src/campus/transaction.ts';
import { validationError } from '../../src/shared/errors.ts';
import { recordSearchFor } from '../../src/campus/search-storage.ts';
import { providerOf } from '../../src/db/provider.ts';

const w = useWorld();
let deps: CampusDeps;
const course = (tx: CampusDeps, Code: string) => tx.db.course.create({ data: { Class: 'Slate\\Courses\\Course', Title: Code, Code, Handle: Code.toLowerCase() } });
const codes = async () => (await w.app.db.course.findMany({ orderBy: { ID: 'asc' } })).map((c) => c.Code);

beforeAll(async () => {
  deps = { db: w.app.db, clock: w.clock, search: recordSearchFor(providerOf(w.databaseUrl), w.app.db), database: w.app.services.campus.database };
});

describe('writeTransaction', () => {
  it('commits every write together and publishes after the commit', async () => {
    const published: string[] = [];
    await writeTransaction(deps, async (tx) => {
      await course(tx, 'A1');
      afterCommit(tx, () => published.push('A1'));
      // Nothing is published while the transaction is open.
      expect(published).toEqual([]);
      // A nested call joins the open transaction.
      await writeTransaction(tx, async (inner) => void (await course(inner, 'A2')));
    });
    expect(published).toEqual(['A1']);
    expect(await codes()).toEqual(['A1', 'A2']);
  });

  it('rolls back every write, nested ones included, and publishes nothing when the work throws', async () => {
    const published: string[] = [];
    await expect(
      writeTransaction(deps, async (tx) => {
        await course(tx, 'B1');
        afterCommit(tx, () => published.push('B1'));
        await writeTransaction(tx, async (inner) => void (await course(inner, 'B2')));
        throw new Error('fault');
      }),
    ).rejects.toThrow('fault');
    expect(published).toEqual([]);
    expect(await codes()).toEqual(['A1', 'A2']);
  });

  it('publishes at once outside a transaction', () => {
    const published: string[] = [];
    afterCommit(deps, () => published.push('now'));
    expect(published).toEqual(['now']);
  });
});

describe('batchItem', () => {
  it('undoes the writes and drops the events of an item refused after writing; the others stand', async () => {
    const published: string[] = [];
    const outcomes = await writeTransaction(deps, async (tx) => {
      const results: string[] = [];
      for (const code of ['C1', 'C2', 'C3']) {
        try {
          await batchItem(tx, async () => {
            await course(tx, code);
            afterCommit(tx, () => published.push(code));
            if (code === 'C2') throw validationError('refused after writing');
          });
          results.push(`${code} saved`);
        } catch (err) {
          results.push(`${code}: ${(err as Error).message}`);
        }
      }
      return results;
    });
    expect(outcomes).toEqual(['C1 saved', 'C2: refused after writing', 'C3 saved']);
    expect(published).toEqual(['C1', 'C3']);
    expect(await codes()).toEqual(['A1', 'A2', 'C1', 'C3']);
  });

  it('lets a fault (not a domain error) end the whole batch', async () => {
    await expect(
      writeTransaction(deps, async (tx) => {
        await batchItem(tx, () => course(tx, 'D1'));
        await batchItem(tx, async () => {
          await course(tx, 'D2');
          throw new Error('disk full');
        });
      }),
    ).rejects.toThrow('disk full');
    expect(await codes()).toEqual(['A1', 'A2', 'C1', 'C3']);
  });

  it('runs only inside a transaction', async () => {
    await expect(batchItem(deps, async () => 1)).rejects.toThrow(/inside writeTransaction/);
  });
});
