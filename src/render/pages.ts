import type { ArticleSource } from '../load/articles';
import { localizeHref } from '../model/links';
import { unpublished } from '../model/publication';
import type { Article, Site } from '../model/site';
import { readableDate } from '../shared/date';
import type { Lang } from '../shared/lang';
import type { ArticleLink, ArticleProps, BlogProps, CategoryProps, GalleryProps, PageProps } from '../shared/props';
import { readingMinutes } from '../shared/readingTime';
import type { Route } from '../shared/route';
import { isExternal } from '../shared/url';
import { derivedTrail, plainTitle, resolveTrail } from './breadcrumbs';

/** What the head of a page needs from its content. */
export interface PageContent {
  props: PageProps;
  title: string;
  description: string;
}

const VIDEO_TYPES: Record<string, string> = { webm: 'video/webm', mp4: 'video/mp4', ogv: 'video/ogg' };

/** The props of one edition of a route. */
export function pageContent(site: Site, route: Route, lang: Lang): PageContent {
  const { pages } = site.content;
  const m = site.media;
  const pic = site.picture;
  const link = (path: string) => localizeHref(path, lang, site.routeByPath);
  switch (route.component) {
    case 'aboutme': {
      const p = pages.aboutme;
      return {
        title: p.title[lang],
        description: p.description[lang],
        props: {
          kind: 'aboutme',
          title: p.title[lang],
          banner: {
            videos: p.banner.videos.map((src) => ({
              src: m(src),
              type: VIDEO_TYPES[src.split('.').pop() ?? ''] ?? 'video/mp4',
            })),
            poster: m(p.banner.poster),
          },
          greeting: p.greeting[lang],
          intro: {
            title: p.intro.title[lang],
            paragraphs: p.intro.paragraphs.map((t) => t[lang]),
            portrait: {
              src: m(p.intro.portrait.img),
              picture: pic(p.intro.portrait.img),
              alt: p.intro.portrait.description[lang],
              caption: p.intro.portrait.description[lang],
              ...(p.intro.portrait.width ? { width: p.intro.portrait.width } : {}),
            },
          },
          quotesTitle: site.content.strings['aboutme.quotes'][lang] ?? '',
          quotes: p.quotes.map((q) => ({ text: q.text[lang], author: q.author })),
          sections: p.sections.map((section) => ({
            id: section.id,
            heading: section.heading[lang],
            url: link(section.path),
            paragraphs: section.paragraphs.map((t) => t[lang]),
            card: {
              src: m(section.card.img),
              picture: pic(section.card.img),
              alt: section.card.description[lang],
              quote: section.card.quote?.[lang] ?? '',
              writer: section.card.writer ?? '',
              url: link(section.card.route ?? section.path),
              mobileTitle: section.card.mobileTitle?.[lang] ?? section.heading[lang],
              mobileText: section.card.mobileText?.[lang] ?? '',
            },
          })),
          mediaTitle: p.mediaTitle[lang],
          media: p.media.map((item) => ({
            where: item.where,
            title: item.title[lang],
            description: item.description[lang],
            img: m(item.img_url),
            picture: pic(item.img_url),
            logo: m(item.media_url),
            link: item.link,
            ...(item.img_url_width ? { imgWidth: item.img_url_width } : {}),
            ...(item.img_url_margin_bottom ? { imgMarginBottom: item.img_url_margin_bottom } : {}),
          })),
          hobbies: { title: p.hobbies.title[lang], paragraphs: p.hobbies.paragraphs.map((t) => t[lang]) },
        },
      };
    }
    case 'professional': {
      const p = pages.professional;
      return {
        title: p.title[lang],
        description: p.description[lang],
        props: {
          kind: 'professional',
          title: p.title[lang],
          hero: {
            tagline: p.hero.tagline[lang],
            image: m(p.hero.image),
            picture: pic(p.hero.image),
            contactUrl: p.hero.contactUrl,
          },
          experienceTitle: p.experienceTitle[lang],
          experiences: p.experiences.map((card) => ({
            id: card.id,
            name: card.name,
            color: card.color,
            title: card.title[lang],
            period: card.period[lang],
            html: site.experienceHtml.get(card.id)?.[lang] ?? '',
            img: m(card.img_url),
            picture: pic(card.img_url),
            url: card.url,
          })),
          skillsTitle: p.skillsTitle[lang],
          skills: p.skills.map((g) => ({
            title: g.title[lang],
            items: g.items.map((i) => ({ img: m(i.img_url), title: i.title })),
          })),
          valuesTitle: p.valuesTitle[lang],
          values: p.values.map((v) => ({ img: m(v.img_url), title: v.title[lang], description: v.description[lang] })),
        },
      };
    }
    case 'projects': {
      const p = pages.projects;
      return {
        title: p.title[lang],
        description: p.description[lang],
        props: {
          kind: 'projects',
          title: p.title[lang],
          intro: p.intro[lang],
          projects: p.projects.map((project) => {
            const external = isExternal(project.link);
            return {
              id: project.id,
              title: project.title[lang],
              description: project.description[lang],
              img: m(project.img),
              picture: pic(project.img),
              href: external ? project.link : link(project.link),
              external,
              tags: project.tags,
            };
          }),
        },
      };
    }
    case 'atelier': {
      const p = pages.atelier;
      const card = (c: typeof p.articlesCard) => ({
        title: c.title[lang],
        description: c.description[lang],
        img: m(c.img),
        picture: pic(c.img),
        url: c.url,
      });
      return {
        title: p.title[lang],
        description: p.description[lang],
        props: {
          kind: 'atelier',
          title: p.title[lang],
          intro: p.intro[lang],
          videosTitle: p.videosTitle[lang],
          playlists: p.playlists.map(card),
          viewsNote: p.viewsNote[lang],
          articlesTitle: p.articlesTitle[lang],
          articlesCard: card(p.articlesCard),
        },
      };
    }
    case 'blog':
      return { title: pages.blog.title[lang], description: pages.blog.description[lang], props: blogProps(site, lang) };
    case 'category':
      return categoryContent(site, route, lang);
    case 'gallery':
      return galleryContent(site, route, lang);
    case 'article':
      return articleContent(site, route, lang);
  }
}

/** The articles of a category that have an edition in `lang`, newest first. */
export function articlesIn(site: Site, categoryKey: string, lang: Lang): ArticleLink[] {
  return site.newest[lang]
    .filter((e) => e.source.category === categoryKey)
    .map((e) => ({
      title: e.source.frontMatter.title,
      url: e.url,
      description: e.source.frontMatter.description,
      date: e.source.frontMatter.date,
      dateLabel: readableDate(e.source.frontMatter.date, lang),
      readingTime: readingTime(site, e.body.words, lang),
      ...status(site, e.source, lang),
    }));
}

function blogProps(site: Site, lang: Lang): BlogProps {
  const blog = site.content.pages.blog;
  const listed = titlesByCategory(site, lang);
  return {
    kind: 'blog',
    title: blog.title[lang],
    intro: blog.intro[lang],
    categories: blog.categories.flatMap((key) => {
      const category = site.categories.get(key);
      if (!category) return [];
      return [
        {
          key,
          title: category.data.title[lang],
          description: category.data.description[lang],
          url: localizeHref(category.data.blogcategory, lang, site.routeByPath),
          gallery: category.data.kind === 'gallery',
          articles: blog.highlights?.[key]
            ? blog.highlights[key].flatMap((entry) =>
                entry.title[lang]
                  ? [{ title: entry.title[lang]!, url: localizeHref(entry.path, lang, site.routeByPath) }]
                  : [],
              )
            : (listed.get(key) ?? []),
        },
      ];
    }),
  };
}

/**
 * The title, URL and status of each edition in `lang`, newest first, by category: all the Blog
 * index shows of them. One walk of the editions, with no date or reading time worked out for the
 * thousands of them a large site lists.
 */
function titlesByCategory(site: Site, lang: Lang): Map<string, { title: string; url: string; status?: string }[]> {
  const byCategory = new Map<string, { title: string; url: string; status?: string }[]>();
  for (const edition of site.newest[lang]) {
    const entry = { title: edition.source.frontMatter.title, url: edition.url, ...status(site, edition.source, lang) };
    const listed = byCategory.get(edition.source.category);
    if (listed) listed.push(entry);
    else byCategory.set(edition.source.category, [entry]);
  }
  return byCategory;
}

function categoryContent(site: Site, route: Route, lang: Lang): PageContent {
  const category = site.categories.get(route.name)!.data;
  const props: CategoryProps = {
    kind: 'category',
    title: category.title[lang],
    description: category.description[lang],
    breadcrumbs: resolveTrail(site, lang, category.breadcrumbs ?? derivedTrail(site, lang, route.name)),
    ...(category.msg?.[lang] ? { msg: category.msg[lang] } : {}),
    articles: articlesIn(site, route.name, lang),
    plainLinks: category.plainLinks ?? false,
    links: (category.links ?? [])
      .filter((l) => l.text[lang])
      .map((l) => {
        const external = isExternal(l.url);
        return { text: l.text[lang]!, url: external ? l.url : localizeHref(l.url, lang, site.routeByPath), external };
      }),
  };
  return { title: plainTitle(category.title[lang]), description: category.description[lang], props };
}

function galleryContent(site: Site, route: Route, lang: Lang): PageContent {
  const category = site.categories.get(route.name)!.data;
  const props: GalleryProps = {
    kind: 'gallery',
    title: category.title[lang],
    description: category.description[lang],
    breadcrumbs: resolveTrail(site, lang, category.breadcrumbs ?? derivedTrail(site, lang, route.name)),
    photos: (category.photos ?? []).map((p) => ({
      src: site.media(p.img_url),
      picture: site.picture(p.img_url),
      title: p.title[lang],
      description: p.description[lang],
    })),
  };
  return { title: plainTitle(category.title[lang]), description: category.description[lang], props };
}

export function findArticle(site: Site, route: Route): Article {
  const article = site.articleByPath.get(route.path);
  if (!article) throw new Error(`no article for route ${route.path}`);
  return article;
}

function articleContent(site: Site, route: Route, lang: Lang): PageContent {
  const edition = findArticle(site, route).editions[lang];
  if (!edition) throw new Error(`route ${route.path} has no ${lang} edition`);
  const fm = edition.source.frontMatter;
  const index =
    fm.index === true
      ? edition.body.headings.filter((h) => h.depth === 2).map((h) => ({ id: h.id, text: h.text }))
      : fm.index?.map((i) => ({ id: i.id, text: i.text[lang] ?? i.id }));
  const props: ArticleProps = {
    kind: 'article',
    title: fm.title,
    description: fm.description ?? fm.title,
    date: fm.date,
    dateLabel: readableDate(fm.date, lang),
    readingTime: readingTime(site, edition.body.words, lang),
    breadcrumbs: resolveTrail(
      site,
      lang,
      fm.breadcrumbs ?? derivedTrail(site, lang, edition.source.category, { title: fm.title, path: route.path }),
    ),
    ...(index ? { index } : {}),
    html: edition.body.html,
    ...status(site, edition.source, lang),
    ...outdatedNotice(site, route, lang),
    ...site.neighbours.get(edition.url),
  };
  return { title: fm.title, description: fm.description ?? fm.title, props };
}

/** "Draft" or "Scheduled for 4 March 2027" in a build that shows drafts, for an edition that is one. */
function status(site: Site, source: ArticleSource, lang: Lang): { status?: string } {
  if (!site.publication.drafts) return {};
  const state = unpublished(source, site.publication.today);
  if (!state) return {};
  const strings = site.strings[lang];
  return {
    status:
      state.kind === 'draft'
        ? strings['article.draft']
        : strings['article.scheduled'].replace('{date}', readableDate(state.date, lang)),
  };
}

/**
 * The notice of an edition whose counterpart changed since the two were last brought in line,
 * when this build shows the counterpart (a reader can follow the link).
 */
export function outdatedNotice(
  site: Site,
  route: Route,
  lang: Lang,
): { outdated?: NonNullable<ArticleProps['outdated']> } {
  const article = site.articleByPath.get(route.path);
  const state = site.translations.editions.get(article?.editions[lang]?.source.file ?? '');
  const counterpart = state?.kind === 'outdated' ? article?.editions[state.counterpart.lang] : undefined;
  if (state?.kind !== 'outdated' || !counterpart) return {};
  const strings = site.strings[lang];
  const [before = '', after = ''] = strings['article.outdated']
    .replace('{date}', readableDate(state.since, lang))
    .split('{other}');
  return {
    outdated: { before, link: strings['article.outdated.other'], after, url: counterpart.url, lang: counterpart.lang },
  };
}

/** "6 min read", as the page's language writes it. */
export function readingTime(site: Site, words: number, lang: Lang): string {
  return site.strings[lang]['article.readingTime'].replace('{n}', String(readingMinutes(words)));
}
