/**
 * Entry point of the `rexbot` command: parses the sub-command and dispatches to it.
 * Each sub-command lives in its own file and returns the process exit code.
 */

/** One sub-command of the CLI. */
export interface Command {
  /** One-line description for `rexbot help`. */
  summary: string;
  /** Runs the command; resolves with the exit code. */
  run(args: string[]): Promise<number>;
}

const commands: Record<string, () => Promise<Command>> = {};

/** Register a sub-command (lazy, so `rexbot help` does not load the whole framework). */
export function registerCommand(name: string, load: () => Promise<Command>): void {
  commands[name] = load;
}

function usage(): string {
  const names = Object.keys(commands).sort();
  return ['usage: rexbot <command> [options]', '', 'commands:', ...names.map((n) => `  ${n}`)].join('\n');
}

/** Run the CLI with `argv` (without node and script). Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  await import('./commands.js');
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`rexbot: unknown command '${name}'\n${usage()}\n`);
    return 2;
  }
  const cmd = await load();
  return cmd.run(rest);
}
