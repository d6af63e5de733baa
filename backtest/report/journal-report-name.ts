/**
 * What `rexbot report` calls the report of a journal file, and whether the file is a compaction history
 * (`<journal>.history`, journal.keepHistory: every journal a compaction replaced, appended whole).
 */
import { basename } from 'node:path';

/** Whether `file` is a compaction history rather than a journal. */
export function isHistory(file: string): boolean {
  return file.endsWith('.history');
}

/**
 * The report's name for journal `file`: its file name without `.jsonl`, and a compaction history's the journal's
 * with `.history` (`x.jsonl` → `x`, `x.jsonl.history` → `x.history`), so the two reports sit side by side.
 *
 * @example
 * journalReportName('.rexbot/journal/demo/demo.jsonl.history') // 'demo.history'
 */
export function journalReportName(file: string): string {
  const name = basename(file);
  return isHistory(name) ? `${name.slice(0, -'.history'.length).replace(/\.jsonl$/, '')}.history` : name.replace(/\.jsonl$/, '');
}
