import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digest, digestAll } from '../../../src/load/digest';

describe('content hashes', () => {
  it('hash as many parts as a large site has (more than a call takes as arguments)', () => {
    const parts = Array.from({ length: 400_000 }, (_, i) => `/blog/tech/post${i}`);
    expect(digestAll(parts)).toMatch(/^[\w-]{27}$/);
    expect(digestAll(parts)).not.toBe(digestAll(parts.slice(1)));
  });

  it('tell parts apart from their concatenation', () => {
    expect(digest('ab', 'c')).not.toBe(digest('a', 'bc'));
    expect(digestAll(['ab', 'c'])).toBe(digest('ab', 'c'));
  });

  it('hash each part followed by a NUL, however the parts are grouped for the hash', () => {
    const oneByOne = (parts: (string | Uint8Array)[]) => {
      const hash = createHash('sha1');
      for (const part of parts) hash.update(part).update('\0');
      return hash.digest('base64url');
    };
    const strings = Array.from({ length: 1500 }, (_, i) => (i % 3 ? `Título ${i}, ação` : `/pt/blog/x/${i}`));
    const mixed = [...strings.slice(0, 700), Buffer.from('bytes é'), '', ...strings.slice(700)];
    for (const parts of [[], [''], ['a'], strings, mixed, [Buffer.from([0, 1])], ['€', '😀']])
      expect(digestAll(parts)).toBe(oneByOne(parts));
  });
});
