import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTitleParts, writeTitleParts } from '../../../src/check/keptTitles';

describe('the titles a check’s findings were found under, kept apart', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-titles-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const parts = (n: number) =>
    Array.from({ length: 3 }, (_, i) => `/blog/tech/a${i}\0a${i}\0en\0Title ${i}, edit ${n}`);

  it('reads back the parts of a key, and none of a key never written', () => {
    writeTitleParts(dir, 'k1', parts(1), undefined);
    expect(readTitleParts(dir, 'k1')).toEqual(parts(1));
    expect(readTitleParts(dir, 'k2')).toBeUndefined();
  });

  it('keeps the key the memo still names beside the new one, and drops the rest', async () => {
    writeTitleParts(dir, 'k1', parts(1), undefined);
    writeTitleParts(dir, 'k2', parts(2), 'k1');
    writeTitleParts(dir, 'k3', parts(3), 'k2');
    expect((await readdir(dir)).sort()).toEqual(['titles-k2.json', 'titles-k3.json']);
    expect(readTitleParts(dir, 'k2')).toEqual(parts(2));
  });

  it('reads no parts from a file cut short or of another shape', async () => {
    await writeFile(path.join(dir, 'titles-k1.json'), JSON.stringify(parts(1)).slice(0, 20));
    await writeFile(path.join(dir, 'titles-k2.json'), JSON.stringify({ parts: parts(2) }));
    expect(readTitleParts(dir, 'k1')).toBeUndefined();
    expect(readTitleParts(dir, 'k2')).toBeUndefined();
  });
});
