/**
 * Reading a config file's text (bot, backtest and simulator YAML): the one place that decides what may be read as a
 * config. Only a regular file of at most {@link MAX_CONFIG_BYTES}: a FIFO with no writer held `rexbot validate` (and
 * run, backtest, sim) for good, and a file of hundreds of MB was read whole into one string and crashed the process out
 * of memory with a V8 stack trace. Both are now a config error naming the file, like a missing one.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { notAFile } from '../../core/file-kind.js';

/** The largest config file read: far above any real one (the shipped configs are a few KB). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** Why a config file cannot be read, fit to follow `cannot read file: ` (the code for a file-system error). */
export class ConfigFileError extends Error {}

/**
 * The text of the config file `file`, or of a file a config names (then `kind` says what it is in the size error:
 * `'a recorded-markets file'`). Throws {@link ConfigFileError} for anything but a regular file, a file over
 * `maxBytes`, or a file-system error (its code: `ENOENT`, `EACCES`, ...).
 *
 * @example
 * readConfigText('config/paper.yaml') // 'bot:\n  name: paper-demo\n...'
 */
export function readConfigText(file: string, maxBytes = MAX_CONFIG_BYTES, kind = 'a config'): string {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading otherwise waits for a writer, and nothing could end the wait.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw new ConfigFileError((err as NodeJS.ErrnoException).code ?? (err as Error).message, { cause: err });
  }
  try {
    // Checked on the descriptor that is read: what was checked is what is read.
    const st = fstatSync(fd);
    if (!st.isFile()) {
      throw new ConfigFileError(`it is ${notAFile(st)}, not a file`);
    }
    if (st.size > maxBytes) throw new ConfigFileError(`it is ${st.size} bytes; ${kind} is at most ${maxBytes} (is it the right file?)`);
    try {
      return readFileSync(fd, 'utf8');
    } catch (err) {
      throw new ConfigFileError((err as NodeJS.ErrnoException).code ?? (err as Error).message, { cause: err });
    }
  } finally {
    closeSync(fd);
  }
}
