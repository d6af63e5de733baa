/** `rexbot schema`: print the bot config's JSON Schema (for editor completion: `# yaml-language-server: $schema=...`). */
import { botConfigJsonSchema } from '../runtime/bot-config.js';
import type { Command } from './main.js';

/** The `schema` command. */
export const schemaCommand: Command = {
  usage: 'usage: rexbot schema > config/bot.schema.json\n\nPrint the JSON Schema of bot config files (for editor completion).',
  async run() {
    process.stdout.write(`${JSON.stringify(botConfigJsonSchema(), null, 2)}\n`);
    return 0;
  },
};
