// Files the operator names (export --out, import --in): opened before any work starts, and a
// failure said in one line ("cannot write x: the folder y does not exist"), never a stack.
import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** A file the command cannot use; the message is the whole story. */
export class FileError extends Error {}

function reason(err: NodeJS.ErrnoException, file: string, writing: boolean): string {
  switch (err.code) {
    case 'ENOENT':
      return writing ? `the folder ${path.dirname(path.resolve(file))} does not exist` : 'there is no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return err.message;
  }
}

export function fileError(err: unknown, file: string, writing: boolean): FileError {
  return new FileError(`cannot ${writing ? 'write' : 'read'} ${file}: ${reason(err as NodeJS.ErrnoException, file, writing)}`);
}

async function opened<S extends ReadStream | WriteStream>(stream: S, file: string, writing: boolean): Promise<S> {
  try {
    await once(stream, 'open');
    return stream;
  } catch (err) {
    throw fileError(err, file, writing);
  }
}

/** The file, created or emptied, once it is open. */
export const openForWriting = (file: string) => opened(createWriteStream(file), file, true);
export async function openForReading(file: string): Promise<ReadStream> {
  // A folder opens on Linux and fails at the first read: refuse it before anything starts.
  const isFolder = await stat(file).then((s) => s.isDirectory(), (err: unknown) => { throw fileError(err, file, false); });
  if (isFolder) throw new FileError(`cannot read ${file}: it is a folder`);
  return opened(createReadStream(file), file, false);
}

/** An error of the system (ENOENT, EACCES…) rather than of the gateway. */
export const isSystemError = (err: unknown): err is NodeJS.ErrnoException => err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && 'syscall' in err;
