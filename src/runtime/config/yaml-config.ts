/**
 * Loading YAML configuration files: environment substitution for secrets, schema validation with zod, and errors
 * that name the file, line and field (`config/paper.yaml:12:5 strategies[0].params.spread: Expected number`).
 * Shared by the simulator and bot configs so both behave the same for users.
 */
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { z } from 'zod';
import { RexbotError } from '../../core/errors.js';
import { readConfigText } from './config-file.js';
import { knownKeysAt, unknownKeyMessage } from './did-you-mean.js';

/** One problem found in a config file. */
export interface ConfigIssue {
  /** Dotted field path, e.g. `strategies[0].params.spread`; empty when the problem is not in one field. */
  path: string;
  /**
   * What the problem is about when it is in no field (`path` empty): `YAML syntax` for text the YAML parser
   * refuses, `top level` for a document that is not a mapping. Absent for a file that cannot be read at all.
   */
  what?: string | undefined;
  message: string;
  line?: number;
  col?: number;
}

/** A config file that cannot be used. The message lists every issue as `file:line:col path: message`. */
export class ConfigError extends RexbotError {
  readonly file: string;
  readonly issues: ConfigIssue[];
  constructor(file: string, issues: ConfigIssue[]) {
    super('CONFIG_INVALID', `invalid config ${file}:\n${issues.map((i) => `  ${formatIssue(file, i)}`).join('\n')}`);
    this.file = file;
    this.issues = issues;
  }
}

/**
 * `file:line:col path: message`; in place of the path, what the problem is about when it is in no field
 * (`file:3:1 YAML syntax: ...`), or nothing (`file: cannot read file: ENOENT`).
 */
export function formatIssue(file: string, i: ConfigIssue): string {
  const at = i.line !== undefined ? `${file}:${i.line}:${i.col ?? 1}` : file;
  const subject = i.path || i.what;
  return `${at}${subject ? ` ${subject}` : ''}: ${i.message}`;
}

/** The subject of an issue the YAML parser raised, which no field path can name. */
export const YAML_SYNTAX = 'YAML syntax';

const ENV_RE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replace `${VAR}` and `${VAR:-default}` in string values with environment values. A missing variable without a
 * default is an issue (secrets must not silently become empty strings).
 */
function substituteEnv(text: string, env: NodeJS.ProcessEnv, onMissing: (name: string) => void): string {
  return text.replace(ENV_RE, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    onMissing(name);
    return '';
  });
}

function pathString(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}

function nodeAt(root: Node | null | undefined, path: readonly PropertyKey[]): Node | undefined {
  let node: unknown = root;
  let last: Node | undefined = root ?? undefined;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((it) => (it.key as { value?: unknown } | null)?.value === key);
      if (!pair) return last;
      node = pair.value;
      last = (pair.value as Node | null) ?? (pair.key as Node) ?? last;
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key];
      last = (node as Node | undefined) ?? last;
    } else {
      return last;
    }
  }
  return last;
}

/** The path of the innermost value whose source holds `offset` (the path so far when no child does). */
function pathAt(node: unknown, offset: number, path: PropertyKey[] = []): PropertyKey[] {
  const holds = (n: unknown) => {
    const r = (n as Node | null | undefined)?.range;
    return r != null && offset >= r[0] && offset < r[1];
  };
  if (isMap(node)) {
    for (const pair of node.items) {
      if (holds(pair.value)) return pathAt(pair.value, offset, [...path, (pair.key as { value?: PropertyKey } | null)?.value ?? '?']);
    }
  } else if (isSeq(node)) {
    const i = node.items.findIndex(holds);
    if (i >= 0) return pathAt(node.items[i], offset, [...path, i]);
  }
  return path;
}

/** The key node of `key` in the map at `path`, or the map itself when the key cannot be found. */
function keyNodeAt(root: Node | null | undefined, path: readonly PropertyKey[], key: string): Node | undefined {
  const parent = nodeAt(root, path);
  if (isMap(parent)) {
    const pair = parent.items.find((it) => (it.key as { value?: unknown } | null)?.value === key);
    if (pair && pair.key) return pair.key as Node;
  }
  return parent;
}

/**
 * Parse YAML `text` (from `file`, for messages) against `schema`. Values of the form `${VAR}` are taken from `env`.
 *
 * @example
 * const cfg = parseYamlConfig(text, 'config/sim.yaml', simConfigSchema);
 */
export function parseYamlConfig<S extends z.ZodType>(text: string, file: string, schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const pos = (offset: number | undefined) => (offset === undefined ? {} : { line: lc.linePos(offset).line, col: lc.linePos(offset).col });
  if (doc.errors.length > 0) {
    // One error per line, the first three lines: a missing quote or bracket derails every line after it, and the
    // parser's later errors are mostly consequences of the first, so they are counted rather than listed.
    const lines = text.split('\n');
    const shown: ConfigIssue[] = [];
    const seen = new Set<number | undefined>();
    for (const e of doc.errors) {
      const at = pos(e.pos[0]);
      if (seen.has(at.line) || shown.length === 3) continue;
      seen.add(at.line);
      let message = e.message.split('\n')[0]!;
      const source = at.line === undefined ? '' : (lines[at.line - 1] ?? '');
      if (/[{[][^}\]]*(?<!["'])\$\{/.test(source)) message += '; an unquoted ${VAR} inside { } or [ ] is read as YAML syntax: quote it ("${VAR}") or use block style';
      shown.push({ path: '', what: YAML_SYNTAX, message, ...at });
    }
    const hidden = doc.errors.length - shown.length;
    if (hidden > 0) shown[shown.length - 1]!.message += ` (and ${hidden} more syntax error${hidden > 1 ? 's' : ''} they caused)`;
    throw new ConfigError(file, shown);
  }
  const missing: ConfigIssue[] = [];
  // A missing variable is placed where the file uses it (the reviver does not know the path, the text does).
  const whereUsed = (name: string) => {
    const at = text.search(new RegExp(`\\$\\{${name}(?::-[^}]*)?\\}`));
    return at < 0 ? {} : { path: pathString(pathAt(doc.contents, at)), ...pos(at) };
  };
  let data: unknown;
  try {
    data = doc.toJS({
      reviver: (_k: unknown, v: unknown) =>
        typeof v === 'string' ? substituteEnv(v, env, (name) => missing.push({ path: '', ...whereUsed(name), message: `environment variable ${name} is not set` })) : v,
    }) as unknown;
  } catch (err) {
    // The yaml library refuses an alias bomb here ("Excessive alias count ..."): a config error of this file.
    throw new ConfigError(file, [{ path: '', what: 'YAML', message: (err as Error).message }]);
  }
  const result = schema.safeParse(data ?? {});
  const issues: ConfigIssue[] = [...missing];
  if (!result.success) {
    for (const iss of result.error.issues) {
      if (iss.code === 'unrecognized_keys') {
        // One issue per unknown key, placed on the key itself: the object that holds it may start many lines up.
        for (const key of iss.keys) {
          issues.push({ path: pathString([...iss.path, key]), message: unknownKeyMessage(key, knownKeysAt(schema, iss.path)), ...pos(keyNodeAt(doc.contents, iss.path, key)?.range?.[0]) });
        }
        continue;
      }
      const node = nodeAt(doc.contents, iss.path);
      const at = pos(node?.range?.[0]);
      // The empty string a missing variable left is not a second mistake: said once, as the missing variable.
      if (at.line !== undefined && missing.some((m) => m.line === at.line)) continue;
      issues.push({ path: pathString(iss.path), ...(iss.path.length === 0 ? { what: 'top level' } : {}), message: iss.message, ...at });
    }
  }
  if (issues.length > 0) throw new ConfigError(file, issues);
  return (result as { data: z.output<S> }).data;
}

/**
 * Where a field of a YAML config text is: `locate(path)` gives the line and column of the value at `path`
 * (`['strategies', 0, 'params', 'spread']`), or of the key `key` in the map at `path`; the nearest enclosing node
 * when the path goes further than the document. Used to place errors found after loading (plugin params) the same
 * way as schema errors.
 */
export function yamlLocator(text: string): (path: readonly PropertyKey[], key?: string) => { line?: number; col?: number } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  return (path, key) => {
    const node = key === undefined ? nodeAt(doc.contents, path) : keyNodeAt(doc.contents, path, key);
    const offset = node?.range?.[0];
    return offset === undefined ? {} : { line: lc.linePos(offset).line, col: lc.linePos(offset).col };
  };
}

/**
 * The text of config file `file`; a missing or unreadable file, anything but a regular file (a FIFO, a directory) and
 * a file too large to be a config are a ConfigError naming it (see config-file.ts).
 */
export function readConfigFile(file: string): string {
  try {
    return readConfigText(file);
  } catch (err) {
    throw new ConfigError(file, [{ path: '', message: `cannot read file: ${(err as Error).message}` }]);
  }
}

/** Read and parse a YAML config file. A missing or unreadable file is a ConfigError naming it. */
export function loadYamlConfig<S extends z.ZodType>(file: string, schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  return parseYamlConfig(readConfigFile(file), file, schema, env);
}
