/** A queue worker's folders (`--root`): what lies in them once `..` and symbolic links are resolved, and what does not. */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertInsideRoots, resolveRoots } from '../../../backtest/sweep/allowed-roots.js';

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A temp folder (real path) with `root/` holding a file, a sibling `root2/`, and `outside/`. */
async function folders() {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'rexbot-roots-')));
  for (const d of ['root', 'root2', 'outside']) await mkdir(join(dir, d));
  await writeFile(join(dir, 'root', 'bt.yaml'), '');
  return { root: join(dir, 'root'), outside: join(dir, 'outside') };
}

describe('allowed roots', () => {
  it('a path in a root, or still to be made there, is its real path', async () => {
    const { root } = await folders();
    await symlink(join(root, 'bt.yaml'), join(root, 'alias.yaml'));
    expect(await assertInsideRoots(join(root, 'bt.yaml'), [root], 'config')).toBe(join(root, 'bt.yaml'));
    expect(await assertInsideRoots(join(root, 'alias.yaml'), [root], 'config')).toBe(join(root, 'bt.yaml'));
    expect(await assertInsideRoots(join(root, 'sub', '..', 'out', 'new', 'dir'), [root], 'output folder')).toBe(join(root, 'out', 'new', 'dir'));
    expect(await assertInsideRoots(root, [root], 'output folder')).toBe(root);
  });

  it('refuses `..` out, a sibling sharing the prefix, a link out, a link out of a folder still to be made, a link to nothing', async () => {
    const { root, outside } = await folders();
    const out = `is outside the folders this worker may use (${root}); start the worker with --root for it`;
    await expect(assertInsideRoots(`${root}/../outside/x`, [root], 'config')).rejects.toThrow(`config ${root}/../outside/x (really ${outside}/x) ${out}`);
    await expect(assertInsideRoots(join(dir, 'root2', 'x'), [root], 'config')).rejects.toThrow(`config ${join(dir, 'root2', 'x')} ${out}`);
    await symlink(outside, join(root, 'escape'));
    await expect(assertInsideRoots(join(root, 'escape', 'new', 'report'), [root], 'output folder')).rejects.toThrow(
      `output folder ${join(root, 'escape', 'new', 'report')} (really ${join(outside, 'new', 'report')}) ${out}`,
    );
    await symlink(join(outside, 'later'), join(root, 'dangling'));
    await expect(assertInsideRoots(join(root, 'dangling', 'report'), [root], 'output folder')).rejects.toThrow(
      `output folder ${join(root, 'dangling', 'report')}: ${join(root, 'dangling')} cannot be resolved (a symbolic link to nothing, or unreadable)`,
    );
  });

  it('--root folders must exist and be folders; --map targets may be made later', async () => {
    const { root } = await folders();
    expect(await resolveRoots([root, join(root, '..', 'root2')], { mustExist: true, flag: '--root' })).toEqual([root, join(dir, 'root2')]);
    await expect(resolveRoots([join(dir, 'none')], { mustExist: true, flag: '--root' })).rejects.toThrow(`--root ${join(dir, 'none')}: no such folder`);
    await expect(resolveRoots([join(root, 'bt.yaml')], { mustExist: true, flag: '--root' })).rejects.toThrow(`--root ${join(root, 'bt.yaml')}: not a folder`);
    expect(await resolveRoots([join(dir, 'share', 'out')], { mustExist: false, flag: '--map' })).toEqual([join(dir, 'share', 'out')]);
  });
});
