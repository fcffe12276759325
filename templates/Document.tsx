import type { Chrome, HeadProps, PageProps } from '../src/shared/props';
import { THEME_SCRIPT } from '../src/shared/theme';
import { serializeProps } from './islands/serialize';
import { Layout } from './layout/Layout';
import { AboutMe } from './pages/AboutMe';
import { Article } from './pages/Article';
import { Atelier } from './pages/Atelier';
import { BlogIndex } from './pages/BlogIndex';
import { CategoryListing } from './pages/CategoryListing';
import { Gallery } from './pages/Gallery';
import { NotFound } from './pages/NotFound';
import { Professional } from './pages/Professional';
import { Projects } from './pages/Projects';

/** One complete HTML document: the head, and the page inside the layout inside #app. */
export function Document({ head, chrome, page }: { head: HeadProps; chrome: Chrome; page: PageProps }) {
  return (
    <html lang={chrome.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        <link rel="canonical" href={head.canonical} />
        {head.alternates.map((alt) => (
          <link key={alt.hreflang} rel="alternate" hrefLang={alt.hreflang} href={alt.href} />
        ))}
        <meta property="og:type" content={head.share.type} />
        <meta property="og:site_name" content={head.share.siteName} />
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        <meta property="og:url" content={head.canonical} />
        <meta property="og:image" content={head.share.image.url} />
        <meta property="og:image:type" content="image/png" />
        <meta property="og:image:width" content={String(head.share.image.width)} />
        <meta property="og:image:height" content={String(head.share.image.height)} />
        <meta property="og:image:alt" content={head.share.image.alt} />
        <meta property="og:locale" content={head.share.locale} />
        {head.share.localeAlternates.map((locale) => (
          <meta key={locale} property="og:locale:alternate" content={locale} />
        ))}
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="twitter:title" content={head.title} />
        <meta name="twitter:description" content={head.description} />
        <meta name="twitter:image" content={head.share.image.url} />
        <meta name="twitter:image:alt" content={head.share.image.alt} />
        <link rel="icon" href={head.favicon} type="image/svg+xml" />
        <link rel="apple-touch-icon" href={head.appleTouchIcon} />
        <link rel="manifest" href={head.manifest} />
        <link rel="alternate" type="application/rss+xml" title={head.feed.title} href={head.feed.href} />
        {head.jsonLd && (
          <script
            type="application/ld+json"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON made safe for a <script> by serializeProps
            dangerouslySetInnerHTML={{ __html: serializeProps(head.jsonLd) }}
          />
        )}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed script of ours (src/shared/theme.ts), before the styles: no flash of the other scheme */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        {'inline' in head.styles ? (
          <style
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own minified CSS, from templates/styles
            dangerouslySetInnerHTML={{ __html: head.styles.inline }}
          />
        ) : (
          head.styles.links.map((href) => <link key={href} rel="stylesheet" href={href} />)
        )}
        {/* A module script is deferred: it never blocks rendering. */}
        <script type="module" src={head.script} />
      </head>
      <body>
        <Layout chrome={chrome}>
          <PageBody chrome={chrome} page={page} />
        </Layout>
      </body>
    </html>
  );
}

function PageBody({ chrome, page }: { chrome: Chrome; page: PageProps }) {
  switch (page.kind) {
    case 'aboutme':
      return <AboutMe chrome={chrome} page={page} />;
    case 'professional':
      return <Professional chrome={chrome} page={page} />;
    case 'projects':
      return <Projects chrome={chrome} page={page} />;
    case 'atelier':
      return <Atelier chrome={chrome} page={page} />;
    case 'blog':
      return <BlogIndex chrome={chrome} page={page} />;
    case 'category':
      return <CategoryListing chrome={chrome} page={page} />;
    case 'gallery':
      return <Gallery chrome={chrome} page={page} />;
    case 'article':
      return <Article chrome={chrome} page={page} />;
    case 'notfound':
      return <NotFound chrome={chrome} page={page} />;
  }
}
