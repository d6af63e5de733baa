/**
 * Type-checking TypeScript strategy plugins before a run. Plugins load without a build step (tsx strips types),
 * so nothing else would catch `direction: 'BYU'` or a misspelt context member until the strategy runs. When the
 * `typescript` package can be imported (it is a dev dependency of rexbot, and of most TypeScript projects), the
 * plugin files are checked with strict settings; only errors inside the plugin files are reported, each as
 * `file:line:col: TS<code> message`. Without TypeScript the check is skipped and says so.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** rexbot's own type roots (Node's types), so a plugin outside the repository checks against them too. */
const REXBOT_TYPE_ROOTS = [fileURLToPath(new URL('../../node_modules/@types', import.meta.url))];

/** One type error in a plugin file (1-based line and column). */
export interface PluginTypeError {
  file: string;
  line: number;
  col: number;
  code: number;
  message: string;
}

/** The outcome of {@link typecheckPlugins}. */
export type TypecheckResult = { checked: false; reason: string } | { checked: true; files: string[]; errors: PluginTypeError[] };

/** `file:line:col: TS2322 Type '"BYU"' is not assignable ...`. */
export function formatTypeError(e: PluginTypeError): string {
  return `${e.file}:${e.line}:${e.col}: TS${e.code} ${e.message}`;
}

/**
 * Type-check the `.ts`/`.mts` files among `paths` (JavaScript plugins have no types to check).
 *
 * @example
 * const r = await typecheckPlugins(['/bot/strategies/mine.ts']);
 * if (r.checked) for (const e of r.errors) console.error(formatTypeError(e));
 */
export async function typecheckPlugins(paths: readonly string[]): Promise<TypecheckResult> {
  const files = [...new Set(paths.filter((p) => ['.ts', '.mts', '.cts'].includes(extname(p))))];
  if (files.length === 0) return { checked: true, files, errors: [] };
  let ts: typeof import('typescript');
  try {
    ts = (await import('typescript')).default;
  } catch {
    return { checked: false, reason: 'TypeScript is not installed (npm i -D typescript to type-check plugins)' };
  }
  const options: import('typescript').CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    typeRoots: REXBOT_TYPE_ROOTS,
    esModuleInterop: true,
    allowImportingTsExtensions: true,
    isolatedModules: true,
  };
  const program = ts.createProgram(files, options);
  const wanted = new Set(files.map((f) => f.replace(/\\/g, '/')));
  // Only the plugin files are checked. `getPreEmitDiagnostics(program)` would check every file the plugins reach,
  // rexbot's whole source among them, to report none of it: ~50 s of `rexbot validate` on a slow machine against
  // a few seconds. The checker still reads the declarations a plugin uses from the files that hold them.
  const diagnostics = program.getSourceFiles().filter((sf) => wanted.has(sf.fileName.replace(/\\/g, '/')))
    .flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]);
  const errors: PluginTypeError[] = [];
  for (const d of diagnostics) {
    if (d.category !== ts.DiagnosticCategory.Error || !d.file || d.start === undefined) continue;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    errors.push({ file: d.file.fileName, line: line + 1, col: character + 1, code: d.code, message: briefMessage(d.messageText) });
  }
  return { checked: true, files, errors };
}

/**
 * The first and the deepest line of a diagnostic's message chain: for `direction: 'BYU'` that is "Type ... is not
 * assignable to type ..." and "Type '"BYU"' is not assignable to type '"BUY" | "SELL"'", the line that names the
 * mistake; the lines between restate the types at each level.
 */
function briefMessage(text: string | import('typescript').DiagnosticMessageChain): string {
  if (typeof text === 'string') return text;
  let deepest = text;
  while (deepest.next && deepest.next.length > 0) deepest = deepest.next[0]!;
  return deepest === text ? text.messageText : `${text.messageText} ... ${deepest.messageText}`;
}
