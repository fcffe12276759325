import { describe, expect, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { neighbourMap, retitledNeighbours } from '../../../src/model/neighbours';
import type { ArticleEdition } from '../../../src/model/site';
import { readingMinutes } from '../../../src/shared/readingTime';
import { PROJECT_ROOT } from '../../support/content';

/** An edition with what neighbours are worked out from: its URL, category, title and place. */
const edition = (url: string, category: string, title = url) =>
  ({ url, source: { category, frontMatter: { title } } }) as unknown as ArticleEdition;

describe('the previous and next article of each edition', () => {
  it('are the ones published just before and after it in its category, skipping other categories', () => {
    // Newest first, as the model orders them.
    const [c, x, b, y, a] = [
      edition('/c', 'tech'),
      edition('/x', 'books'),
      edition('/b', 'tech'),
      edition('/y', 'books'),
      edition('/a', 'tech'),
    ];
    const map = neighbourMap({ en: [c, x, b, y, a], pt: [] });
    expect(map.get('/c')).toEqual({ previous: { title: '/b', url: '/b' } });
    expect(map.get('/b')).toEqual({ previous: { title: '/a', url: '/a' }, next: { title: '/c', url: '/c' } });
    expect(map.get('/a')).toEqual({ next: { title: '/b', url: '/b' } });
    expect(map.get('/x')).toEqual({ previous: { title: '/y', url: '/y' } });
  });

  it('stay in the language of the edition', () => {
    const map = neighbourMap({ en: [edition('/b', 'tech'), edition('/a', 'tech')], pt: [edition('/pt/b', 'tech')] });
    expect(map.get('/pt/b')).toEqual({});
    expect(map.get('/b')).toEqual({ previous: { title: '/a', url: '/a' } });
  });

  it('are the very last ones after an edit that moves no edition and changes no title, and not worked out from them after a move', () => {
    const [b, a] = [edition('/b', 'tech', 'B'), edition('/a', 'tech', 'A')];
    const before = { en: [b, a], pt: [] };
    const last = neighbourMap(before);
    expect(retitledNeighbours({ en: [{ ...b, body: {} } as ArticleEdition, a], pt: [] }, before, last)).toBe(last);
    expect(retitledNeighbours({ en: [a, b], pt: [] }, before, last)).toBeUndefined();
    expect(retitledNeighbours({ en: [edition('/b', 'books', 'B'), a], pt: [] }, before, last)).toBeUndefined();
    expect(retitledNeighbours({ en: [b], pt: [] }, before, last)).toBeUndefined();
  });

  it('after a title edit name the edition by its new title on both sides in its category, as worked out afresh, and keep every other entry', () => {
    const editions = [
      edition('/d', 'tech'),
      edition('/c', 'tech'),
      edition('/x', 'books'),
      edition('/b', 'tech'),
      edition('/y', 'books'),
      edition('/a', 'tech'),
    ];
    const before = { en: editions, pt: [edition('/pt/b', 'tech')] };
    const last = neighbourMap(before);
    const now = {
      en: editions.map((e) =>
        e.url === '/b' || e.url === '/y' ? edition(e.url, e.source.category, `${e.url} retitled`) : e,
      ),
      pt: before.pt,
    };
    const map = retitledNeighbours(now, before, last);
    expect(map).toBeDefined();
    expect(map).toEqual(neighbourMap(now));
    expect(map?.get('/c')?.previous?.title).toBe('/b retitled');
    expect(map?.get('/a')?.next?.title).toBe('/b retitled');
    expect(map?.get('/x')?.previous?.title).toBe('/y retitled');
    for (const url of ['/d', '/b', '/y', '/pt/b']) expect(map?.get(url), url).toBe(last.get(url));
    // The last map is left as it was: the model it belongs to never changes.
    expect(last.get('/c')?.previous?.title).toBe('/b');
  });

  it('follow each listing of the real content, newest first, in both languages', async () => {
    const { site } = await loadSite(PROJECT_ROOT);
    if (!site) throw new Error('the real content does not load');
    let linked = 0;
    for (const lang of ['en', 'pt'] as const) {
      for (const category of site.categories.keys()) {
        const listed = site.newest[lang].filter((e) => e.source.category === category);
        listed.forEach((e, i) => {
          const { previous, next } = site.neighbours.get(e.url) ?? {};
          expect(previous?.url, e.url).toBe(listed[i + 1]?.url);
          expect(next?.url, e.url).toBe(listed[i - 1]?.url);
          if (previous) expect(previous.title).toBe(listed[i + 1]?.source.frontMatter.title);
          if (previous || next) linked++;
        });
      }
    }
    expect(linked).toBeGreaterThan(20);
  });
});

describe('the reading time', () => {
  it('is the words at 220 a minute, rounded, and never under a minute', () => {
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(329)).toBe(1);
    expect(readingMinutes(330)).toBe(2);
    expect(readingMinutes(1320)).toBe(6);
  });
});
