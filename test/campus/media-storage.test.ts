// The media storage port on the local disk (MEDIA_DIR): put/get/open/remove by key, atomic
// replacement, thumbnails removed below a prefix, and keys that could escape the folder refused.
// Also the MEDIA_DIR default: beside the SQLite file.
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { localMediaStorage } from '../../src/campus/media/local-storage.ts';
import { loadConfig } from '../../src/config/index.ts';

const dir = () => mkdtempSync(path.join(os.tmpdir(), 'media-storage-'));

describe('local media storage', () => {
  it('stores, reads, streams, replaces and removes bytes by key', async () => {
    const root = dir();
    const storage = localMediaStorage(path.join(root, 'media'));
    expect(await storage.get('originals/abc')).toBeNull();
    expect(await storage.open('originals/abc')).toBeNull();
    await storage.put('originals/abc', Buffer.from('first'));
    await storage.put('originals/abc', Buffer.from('second'));
    expect((await storage.get('originals/abc'))!.toString()).toBe('second');
    const opened = (await storage.open('originals/abc'))!;
    expect(opened.size).toBe(6);
    expect(await text(opened.stream)).toBe('second');
    // No temporary files are left behind by the replace.
    expect(readdirSync(path.join(root, 'media', 'originals'))).toEqual(['abc']);
    await storage.put('thumbnails/originals/abc/10x10', Buffer.from('t1'));
    await storage.put('thumbnails/originals/abc/20x20-cropped', Buffer.from('t2'));
    await storage.put('thumbnails/originals/abd/10x10', Buffer.from('other'));
    await storage.removeBelow('thumbnails/originals/abc');
    await storage.remove('originals/abc');
    expect(await storage.get('originals/abc')).toBeNull();
    expect(await storage.get('thumbnails/originals/abc/10x10')).toBeNull();
    expect((await storage.get('thumbnails/originals/abd/10x10'))!.toString()).toBe('other');
    // Removing what is not there is fine.
    await storage.remove('originals/none');
    await storage.removeBelow('thumbnails/none');
  });

  it('refuses keys that are not plain relative names', async () => {
    const storage = localMediaStorage(dir());
    for (const key of ['../escape', '/etc/passwd', 'a/../../b', 'A/B', '', 'a//b', 'a/b/c/d/e/f', 'a\\b']) {
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow('invalid media storage key');
      await expect(storage.get(key), key).rejects.toThrow('invalid media storage key');
    }
  });

  it('keeps media beside the SQLite file unless MEDIA_DIR says otherwise', () => {
    expect(loadConfig({}).mediaDir).toBe('./data/media');
    expect(loadConfig({ DATABASE_URL: 'file:/var/lib/gateway/db.sqlite' }).mediaDir).toBe('/var/lib/gateway/media');
    expect(loadConfig({ DATABASE_URL: 'file:gateway.db' }).mediaDir).toBe('media');
    expect(loadConfig({ DATABASE_URL: 'postgresql://u:p@db:5432/g' }).mediaDir).toBe('data/media');
    expect(loadConfig({ MEDIA_DIR: '/srv/media' }).mediaDir).toBe('/srv/media');
  });
});
