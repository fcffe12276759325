import { renderToString } from 'react-dom/server';
import { mediaUrl } from '../../src/model/links';
import { buildChrome, type ChromeSite } from '../../src/render/chrome';
import type { Lang } from '../../src/shared/lang';
import type { PageStyles } from '../../src/shared/props';
import type { Route } from '../../src/shared/route';
import { THEME_SCRIPT } from '../../src/shared/theme';
import { Layout } from '../../templates/layout/Layout';
import { NewsletterNotice, type NewsletterNoticeProps } from '../../templates/pages/NewsletterNotice';
import type { SiteWords } from './siteWords';

/**
 * What a page of the built site links to that the server cannot work out itself: the CSS of the
 * Not Found page's kind (the one whose look these pages share), the client bundle (content-hashed
 * names) and the icons. Read from the built Not Found page of the dist/ being served.
 */
export interface PageShell {
  styles: PageStyles;
  script: string | undefined;
  favicon: string | undefined;
  appleTouchIcon: string | undefined;
  manifest: string | undefined;
}

const attribute = (html: string, pattern: RegExp) => pattern.exec(html)?.[1]?.replace(/&amp;/g, '&');

export function pageShell(builtPage: string): PageShell {
  const head = builtPage.slice(0, builtPage.indexOf('</head>'));
  const inline = /<style>([\s\S]*?)<\/style>/.exec(head)?.[1];
  const links = [...head.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
  return {
    styles: inline !== undefined ? { inline } : { links },
    script: attribute(head, /<script type="module" src="([^"]+)"/),
    favicon: attribute(head, /<link rel="icon" href="([^"]+)"/),
    appleTouchIcon: attribute(head, /<link rel="apple-touch-icon" href="([^"]+)"/),
    manifest: attribute(head, /<link rel="manifest" href="([^"]+)"/),
  };
}

/**
 * The site's pages the chrome links to, each offered in both languages (docs/product.md, Languages and URLs): the
 * navigation's targets, which is all the chrome needs of the route table.
 */
function navigationRoutes(words: SiteWords): Map<string, Route> {
  return new Map(
    words.navigation.map((item) => [
      item.path,
      {
        path: item.path,
        name: item.path.slice(1),
        component: 'aboutme',
        meta: { availableLangs: ['en', 'pt'] },
      } satisfies Route,
    ]),
  );
}

export interface NewsletterPageInput {
  words: SiteWords;
  shell: PageShell;
  lang: Lang;
  /** This page's URL in each language (the language switch leads there). */
  alternates: Record<Lang, string>;
  notice: NewsletterNoticeProps;
  year: number;
}

/** One of the newsletter's pages as a whole document, in the site's layout, rendered on request. */
export function renderNewsletterPage({ words, shell, lang, alternates, notice, year }: NewsletterPageInput): string {
  const site: ChromeSite = {
    content: { owner: words.owner, navigation: words.navigation, config: words.config, strings: words.all },
    strings: words.strings,
    media: (path) => mediaUrl(path, words.config.imageCdn),
    picture: () => undefined,
    routeByPath: navigationRoutes(words),
  };
  const chrome = { ...buildChrome({ site, lang, route: undefined, year }), alternates, routeName: 'newsletter' };
  const { styles } = shell;
  const document = (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${notice.title} · ${words.owner.name}`}</title>
        {/* A page of one subscriber's link: never indexed, and its address never sent on as a referrer. */}
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed script of ours (src/shared/theme.ts), before the styles: no flash of the other scheme */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        {'inline' in styles ? (
          <style
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own minified CSS, as the build inlined it
            dangerouslySetInnerHTML={{ __html: styles.inline }}
          />
        ) : (
          styles.links.map((href) => <link key={href} rel="stylesheet" href={href} />)
        )}
        {shell.favicon && <link rel="icon" href={shell.favicon} type="image/svg+xml" />}
        {shell.appleTouchIcon && <link rel="apple-touch-icon" href={shell.appleTouchIcon} />}
        {shell.manifest && <link rel="manifest" href={shell.manifest} />}
        {shell.script && <script type="module" src={shell.script} />}
      </head>
      <body>
        <Layout chrome={chrome}>
          <NewsletterNotice {...notice} />
        </Layout>
      </body>
    </html>
  );
  return `<!DOCTYPE html>${renderToString(document)}`;
}
