/**
 * Entry point of the `rexbot` command: parses the sub-command and dispatches to it.
 * Each sub-command lives in its own file and returns the process exit code.
 */

/** One sub-command of the CLI. */
export interface Command {
  /** Usage and help text; `rexbot <command> --help` prints it and exits 0. */
  usage?: string;
  /** Runs the command; resolves with the exit code. */
  run(args: string[]): Promise<number>;
}

const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {};

/**
 * Register a sub-command, loaded only when invoked so `rexbot help` does not load the whole framework; its one-line
 * summary for `rexbot help` is given here for the same reason.
 */
export function registerCommand(name: string, summary: string, load: () => Promise<Command>): void {
  commands[name] = { summary, load };
}

function usage(): string {
  const names = Object.keys(commands).sort();
  const width = Math.max(...names.map((n) => n.length));
  return [
    'usage: rexbot <command> [options]',
    '',
    'commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${commands[n]!.summary}`),
    '',
    'Start with `rexbot run config/paper.yaml` (what `npm start` runs): a paper bot against the embedded simulator.',
  ].join('\n');
}

/** Run the CLI with `argv` (without node and script). Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  await import('./commands.js');
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const load = commands[name]?.load;
  if (!load) {
    process.stderr.write(`rexbot: unknown command '${name}'\n${usage()}\n`);
    return 2;
  }
  const cmd = await load();
  // Help is asked for before anything else is looked at, so `rexbot run --help` never starts a bot.
  if (cmd.usage !== undefined && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(`${cmd.usage}\n`);
    return 0;
  }
  return cmd.run(rest);
}
