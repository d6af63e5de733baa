import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadYamlConfig, parseYamlConfig } from '../../../src/runtime/config/yaml-config.js';

const schema = z.strictObject({
  name: z.string(),
  port: z.number().int().min(0).max(65535),
  strategies: z.array(z.strictObject({ kind: z.string(), spread: z.number().positive() })),
  secret: z.string().optional(),
});

function issues(text: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    parseYamlConfig(text, 'bot.yaml', schema, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseYamlConfig', () => {
  it('parses a valid file', () => {
    const cfg = parseYamlConfig('name: a\nport: 0\nstrategies:\n  - kind: mm\n    spread: 0.1\n', 'bot.yaml', schema, {});
    expect(cfg).toEqual({ name: 'a', port: 0, strategies: [{ kind: 'mm', spread: 0.1 }] });
  });

  it('names file, line, column and field of a wrong type', () => {
    const msg = issues('name: a\nport: 0\nstrategies:\n  - kind: mm\n    spread: wide\n');
    expect(msg).toMatch(/bot\.yaml:5:13 strategies\[0\]\.spread: /);
  });

  it('reports unknown fields', () => {
    expect(issues('name: a\nport: 0\nstrategies: []\nprot: 3\n')).toMatch(/prot/);
  });

  it('an alias bomb is a ConfigError of the file, not a bare library error', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefghij'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefghij'[i]}`).join(', ')}]`), 'name: *j', 'port: 0', 'strategies: []', ''].join('\n');
    expect(issues(bomb)).toMatch(/^invalid config bot\.yaml:\n.*Excessive alias count/);
  });

  it('reports YAML syntax errors with a line, as YAML syntax rather than a field', () => {
    expect(issues('name: a\n  port: : 0\n')).toMatch(/bot\.yaml:2:\d+ YAML syntax: /);
    expect(issues('name: a\n  port: : 0\n')).not.toContain('<root>');
  });

  it('a document that is not a mapping is a top-level problem; a file that cannot be read names no field', () => {
    expect(issues('- name: a\n')).toMatch(/bot\.yaml:1:1 top level: .*expected object/);
    expect(() => loadYamlConfig('/nonexistent/bot.yaml', schema, {})).toThrow(/^invalid config \/nonexistent\/bot\.yaml:\n {2}\/nonexistent\/bot\.yaml: cannot read file: ENOENT$/);
  });

  it('reports one syntax error per line, counting the rest, with a hint for ${VAR} in a flow map', () => {
    const msg = issues('name: a\nport: 0\nstrategies: []\nsecret: { key: ${MY_SECRET} }\nother: 1\n');
    expect(msg.split('\n').filter((l) => l.startsWith('  bot.yaml:')).map((l) => l.split(' ')[2])).toEqual(['bot.yaml:4:17', 'bot.yaml:5:1']);
    expect(msg).toMatch(/bot\.yaml:4:17 .*quote it \("\$\{VAR\}"\) or use block style/);
    expect(msg).toMatch(/and 4 more syntax errors they caused/);
    // Quoted, the same line is fine.
    const cfg = parseYamlConfig('name: a\nport: 0\nstrategies: []\nsecret: { key: "${MY_SECRET}" }\n', 'bot.yaml', z.object({ secret: z.object({ key: z.string() }) }).passthrough(), { MY_SECRET: 's3' });
    expect(cfg.secret.key).toBe('s3');
  });

  it('substitutes environment variables and refuses missing ones', () => {
    const cfg = parseYamlConfig('name: a\nport: 0\nstrategies: []\nsecret: ${MY_SECRET}\n', 'bot.yaml', schema, { MY_SECRET: 's3' });
    expect(cfg.secret).toBe('s3');
    expect(issues('name: a\nport: 0\nstrategies: []\nsecret: ${NOPE}\n')).toMatch(/NOPE is not set/);
    // Said once, where it is used, by the field's path; the empty string it left is not a second issue.
    const strict = z.strictObject({ name: z.string().min(1), creds: z.strictObject({ key: z.string().min(1) }) });
    let msg = '';
    try {
      parseYamlConfig('name: a\ncreds:\n  key: ${NOPE}\n', 'bot.yaml', strict, {});
    } catch (err) {
      msg = (err as Error).message;
    }
    expect(msg.split('\n').slice(1)).toEqual(['  bot.yaml:3:8 creds.key: environment variable NOPE is not set']);
    const withDefault = parseYamlConfig('name: ${N:-dflt}\nport: 0\nstrategies: []\n', 'bot.yaml', schema, {});
    expect(withDefault.name).toBe('dflt');
  });
});
