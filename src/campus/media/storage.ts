// The storage port for uploaded media: bytes by key, nothing about records or HTTP. Keys are
// made by the domain (random for originals, derived for thumbnails), never taken from input.
import type { Readable } from 'node:stream';

export interface MediaStorage {
  /** Stores `bytes` under `key` (replacing what was there); resolves once it is durable. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** A stream of the bytes under `key` and their size, or null when there are none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes `key`; nothing there is fine. */
  remove(key: string): Promise<void>;
  /** Removes every key below `prefix/` (a media's thumbnails); nothing there is fine. */
  removeBelow(prefix: string): Promise<void>;
}

/** Keys are lower-case words joined by `/` (no `..`, no absolute paths): safe as file paths. */
export const KEY_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,99}(\/[a-z0-9][a-z0-9_.-]{0,99}){0,3}$/;

export function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part.includes('..'))) throw new Error(`invalid media storage key: ${JSON.stringify(key)}`);
  return key;
}
