import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OUTPUT_LOGS_KEPT, sweepCache } from '../../../src/build/cacheSweep';
import { endedPid } from '../../support/processes';

describe('sweeping the build cache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-cache-'));
    await mkdir(path.join(dir, 'bodies'));
    await mkdir(path.join(dir, 'cards'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const touch = async (name: string, secondsAgo = 0) => {
    await writeFile(path.join(dir, name), 'x');
    const at = new Date(Date.now() - secondsAgo * 1000);
    await utimes(path.join(dir, name), at, at);
  };

  it("removes the temporary files of ended processes, and keeps a running one's, this process's and the cache's own files", async () => {
    const ended = endedPid();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const gone = [
        `checks.bin.${ended}.tmp`,
        `spare-abc.log.${ended}.tmp`,
        `bodies/0f3a.${ended}.tmp`,
        `bodies/9b1c.${ended}.2.tmp`,
        `cards/3f9a1c2b7d.png.${ended}.3.tmp`,
      ];
      const kept = [
        `checks.bin.${other.pid}.tmp`,
        `bodies/77aa.${process.pid}.1.tmp`,
        'checks.bin',
        'markdown.bin',
        'bodies/0f3a',
        'cards/3f9a1c2b7d.png',
        `cards/77aa.png.${process.pid}.2.tmp`,
        'notes.tmp',
        'output-abc.log',
      ];
      for (const name of [...gone, ...kept]) await touch(name);
      await sweepCache(dir, path.join(dir, 'output-abc.log'));
      const under = async (folder: string) => (await readdir(path.join(dir, folder))).map((n) => `${folder}/${n}`);
      const left = [
        ...(await readdir(dir)).filter((n) => n !== 'bodies' && n !== 'cards'),
        ...(await under('bodies')),
        ...(await under('cards')),
      ];
      expect(left.sort()).toEqual(kept.sort());
    } finally {
      other.kill();
    }
  });

  it(`keeps the logs of the ${OUTPUT_LOGS_KEPT} output folders written last, each with its spare, and the current one's however old`, async () => {
    // Folder i was written i minutes ago; folder 9's spare was written 30 s ago, so it counts as
    // written then; the current one is the oldest of all.
    const count = OUTPUT_LOGS_KEPT + 3;
    for (let i = 0; i < count; i++) await touch(`output-id${i}.log`, i * 60);
    await touch('spare-id1.log', 3600);
    await touch('spare-id9.log', 30);
    await touch('spare-id10.log', 7000);
    await touch('output-current.log', 7200);
    await sweepCache(dir, path.join(dir, 'output-current.log'));
    const newest = ['id0', 'id9', 'id1', 'id2', 'id3', 'id4', 'id5', 'id6'];
    expect(newest).toHaveLength(OUTPUT_LOGS_KEPT);
    const expected = [
      ...newest.map((id) => `output-${id}.log`),
      'spare-id1.log',
      'spare-id9.log',
      'output-current.log',
    ];
    expect((await readdir(dir)).filter((n) => n.endsWith('.log')).sort()).toEqual(expected.sort());
  });

  it('does nothing to a cache folder that is not there', async () => {
    await expect(sweepCache(path.join(dir, 'none'), path.join(dir, 'none', 'output-x.log'))).resolves.toBeUndefined();
  });
});
