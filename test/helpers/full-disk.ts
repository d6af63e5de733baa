/** A journal fs seam (src/orders/journal-appender.ts) over node:fs whose disk can fill up, fail fsync or truncate. */
import { type JournalFs, nodeJournalFs } from '../../src/orders/journal-appender.js';

const errno = (code: string, call: string): Error => Object.assign(new Error(`${code}: injected failure, ${call}`), { code });

/** node:fs with a disk that fills up: `room` bytes may still be written (undefined: no limit). */
export class FullDisk implements JournalFs {
  room: number | undefined;
  fsyncFails = false;
  truncateFails = false;
  write(fd: number, buf: Buffer, offset: number, length: number): number {
    if (this.room === undefined) return nodeJournalFs.write(fd, buf, offset, length);
    if (this.room === 0) throw errno('ENOSPC', 'write');
    // A short write, as the kernel gives when the disk fills mid-record; the next call meets ENOSPC.
    const n = nodeJournalFs.write(fd, buf, offset, Math.min(length, this.room));
    this.room -= n;
    return n;
  }
  fsync(fd: number): void {
    if (this.fsyncFails) throw errno('EIO', 'fsync');
    nodeJournalFs.fsync(fd);
  }
  truncate(fd: number, length: number): void {
    if (this.truncateFails) throw errno('EIO', 'ftruncate');
    nodeJournalFs.truncate(fd, length);
  }
}
