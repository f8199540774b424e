import { open, rename, rm } from 'node:fs/promises';
import { OpsError } from './errors.js';

/**
 * Writes `file` through `fill`, which is given a temporary name beside it: the file takes its own
 * name only once complete and flushed to disk, so an interrupted backup or export never leaves a
 * partial file that looks like a good one, and an older file of that name stays until then.
 */
export async function writeAtomically<T>(file: string, fill: (partial: string) => Promise<T>): Promise<T> {
  const partial = `${file}.${process.pid}.partial`;
  try {
    await (await open(partial, 'wx')).close();
  } catch (err) {
    throw new OpsError(`cannot write ${file}: ${(err as Error).message}`);
  }
  try {
    const result = await fill(partial);
    const written = await open(partial, 'r+');
    try {
      await written.sync();
    } finally {
      await written.close();
    }
    await rename(partial, file);
    return result;
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}
