/** The table of sub-commands. Each is loaded only when invoked. */
import { registerCommand } from './main.js';

registerCommand('version', async () => ({
  summary: 'print the version',
  async run() {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    process.stdout.write(`rexbot ${pkg.version}\n`);
    return 0;
  },
}));

registerCommand('sim', async () => (await import('./sim-command.js')).simCommand);
registerCommand('run', async () => (await import('./run-command.js')).runCommand);
registerCommand('validate', async () => (await import('./validate-command.js')).validateCommand);
registerCommand('schema', async () => (await import('./schema-command.js')).schemaCommand);
registerCommand('record', async () => (await import('./record-command.js')).recordCommand);
