import { describe, expect, it } from 'vitest';
import { digest, digestAll } from '../../src/load/digest';

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
});
