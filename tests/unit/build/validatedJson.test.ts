import { describe, expect, it } from 'vitest';
import { Memo } from '../../../src/build/memo';
import { validatedJson } from '../../../src/build/session';

describe('JSON values kept by the stat signature their file was read with', () => {
  it('gives the value validated for the text the file had with that signature, and nothing for another signature', async () => {
    const validated = validatedJson(await Memo.open<unknown>(undefined), 'code');
    const lock = { articles: { a: 1 } };
    validated.readAt?.('content/translations.json', '10 1 100 100', '{"articles":{"a":1}}');
    validated.set('content/translations.json', '{"articles":{"a":1}}', lock);
    expect(validated.atSignature?.('content/translations.json', '10 1 100 100')).toBe(lock);
    expect(validated.atSignature?.('content/translations.json', '10 1 200 200')).toBeUndefined();
    expect(validated.atSignature?.('content/other.json', '10 1 100 100')).toBeUndefined();
  });

  it('never gives a value validated for another text: a signature read with the old text finds nothing once the new one is kept', async () => {
    const validated = validatedJson(await Memo.open<unknown>(undefined), 'code');
    validated.readAt?.('content/translations.json', 'old', '{"v":1}');
    validated.set('content/translations.json', '{"v":1}', { v: 1 });
    // Written again: read under a new signature, its new text validated.
    validated.readAt?.('content/translations.json', 'new', '{"v":2}');
    validated.set('content/translations.json', '{"v":2}', { v: 2 });
    expect(validated.atSignature?.('content/translations.json', 'new')).toEqual({ v: 2 });
    expect(validated.atSignature?.('content/translations.json', 'old')).toBeUndefined();
  });

  it('names the code: a value validated by other code is not given', async () => {
    const memo = await Memo.open<unknown>(undefined);
    validatedJson(memo, 'old code').readAt?.('content/translations.json', 's', '{}');
    validatedJson(memo, 'old code').set('content/translations.json', '{}', {});
    expect(validatedJson(memo, 'new code').atSignature?.('content/translations.json', 's')).toBeUndefined();
  });
});
