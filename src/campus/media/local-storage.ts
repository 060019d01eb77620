// MediaStorage on the local disk under MEDIA_DIR: a key is a relative path. Writes go to a
// temporary file renamed into place, so a reader never sees half a file.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkKey, type MediaStorage } from './storage.ts';

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

export function localMediaStorage(dir: string): MediaStorage {
  const root = path.resolve(dir);
  const file = (key: string) => path.join(root, ...checkKey(key).split('/'));
  return {
    async put(key, bytes) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, target);
    },
    async get(key) {
      try {
        return await readFile(file(key));
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async open(key) {
      const target = file(key);
      try {
        const info = await stat(target);
        if (!info.isFile()) return null;
        return { stream: createReadStream(target), size: info.size };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async remove(key) {
      await rm(file(key), { force: true });
    },
    async removeBelow(prefix) {
      await rm(file(prefix), { recursive: true, force: true });
    },
  };
}
