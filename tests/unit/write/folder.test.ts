import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeAbandonedStaging, stagingFolder } from '../../../src/write/folder';
import { endedPid } from '../../support/processes';

describe('staging folders left beside the output by builds that were stopped', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-staging-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("removes those of ended processes, and keeps a running build's, this process's and every other folder", async () => {
    const ended = endedPid();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const names = [
        `.dist-new-${ended}-1`,
        `.dist-new-${ended}-2-base`,
        `.dist-new-${other.pid}-3`,
        `.dist-new-${process.pid}-4`,
        `.dist-old-${ended}-5`,
        '.dist-new-notes',
        'dist',
      ];
      for (const name of names) {
        await mkdir(path.join(dir, name, 'blog'), { recursive: true });
        await writeFile(path.join(dir, name, 'blog', 'index.html'), '<!DOCTYPE html>');
      }
      await removeAbandonedStaging(path.join(dir, 'dist'));
      expect((await readdir(dir)).sort()).toEqual(names.slice(2).sort());
    } finally {
      other.kill();
    }
  });

  it('names a staging folder by this process, beside the output', () => {
    expect(path.dirname(stagingFolder(path.join(dir, 'dist')))).toBe(dir);
    expect(path.basename(stagingFolder(path.join(dir, 'dist')))).toMatch(
      new RegExp(`^\\.dist-new-${process.pid}-\\d+$`),
    );
  });
});
