import { describe, expect, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { localizeHref, mediaUrl } from '../../../src/model/links';
import { RouteRecord } from '../../../src/model/schema';
import { editionUrl, type Route } from '../../../src/shared/route';
import { PROJECT_ROOT } from '../../support/content';

const { site } = await loadSite(PROJECT_ROOT);
if (!site) throw new Error('the real content does not load');
const langs = (path: string) => site.routeByPath.get(path)?.meta.availableLangs;

describe('the route table of the real content', () => {
  it('holds only routes that match the route schema, en first whenever offered', () => {
    for (const route of site.routes) {
      expect(RouteRecord.safeParse(route).success, route.path).toBe(true);
      expect([['en'], ['pt'], ['en', 'pt']]).toContainEqual(route.meta.availableLangs);
    }
  });

  it('has the fixed pages in both languages', () => {
    for (const path of ['/aboutme', '/professional', '/blog', '/projects', '/atelier'])
      expect(langs(path)).toEqual(['en', 'pt']);
  });

  it('has the eight listings and the two galleries', () => {
    const categories = site.routes.filter((r) => r.component === 'category' || r.component === 'gallery');
    expect(categories.map((r) => `${r.path} ${r.component}`).sort()).toEqual([
      '/blog/books category',
      '/blog/cinema category',
      '/blog/culture category',
      '/blog/finances category',
      '/blog/fitness category',
      '/blog/gastronomy gallery',
      '/blog/music category',
      '/blog/opinions category',
      '/blog/photos gallery',
      '/blog/tech category',
    ]);
  });

  it('gives each article the languages it has files for, with the case of its file name', () => {
    expect(langs('/blog/tech/Site')).toEqual(['en', 'pt']);
    expect(langs('/blog/culture/gulbenkian')).toEqual(['pt']);
    expect(langs('/blog/books/DangerousLiaisons')).toEqual(['en', 'pt']);
    expect(site.routeByPath.has('/blog/tech/site')).toBe(false);
  });
});

describe('edition URLs', () => {
  const both: Route = {
    path: '/blog/tech/Git',
    name: 'tech/Git',
    component: 'article',
    meta: { availableLangs: ['en', 'pt'] },
  };
  const ptOnly: Route = {
    path: '/blog/culture/mmipo',
    name: 'culture/mmipo',
    component: 'article',
    meta: { availableLangs: ['pt'] },
  };
  const routes = new Map([both, ptOnly].map((r) => [r.path, r]));

  it('serves the first language at the path and Portuguese under /pt', () => {
    expect(editionUrl(both, 'en')).toBe('/blog/tech/Git');
    expect(editionUrl(both, 'pt')).toBe('/pt/blog/tech/Git');
    expect(editionUrl(ptOnly, 'pt')).toBe('/blog/culture/mmipo');
  });

  it('points links at the page language where the target offers it, keeping the hash', () => {
    expect(localizeHref('/blog/tech/Git#github-actions', 'pt', routes)).toBe('/pt/blog/tech/Git#github-actions');
    expect(localizeHref('/blog/culture/mmipo', 'en', routes)).toBe('/blog/culture/mmipo');
    expect(localizeHref('/blog/tech/git', 'pt', routes)).toBe('/blog/tech/git');
  });

  it('rewrites media paths to the image CDN only when one is configured', () => {
    expect(mediaUrl('/media/owner/avatar.svg', undefined)).toBe('/media/owner/avatar.svg');
    expect(mediaUrl('/media/owner/avatar.svg', 'https://img.example.net/')).toBe(
      'https://img.example.net/media/owner/avatar.svg',
    );
  });
});
