/**
 * The props of every page template, already resolved to the page's language: plain strings and
 * final URLs. The render stage builds them from the site model; templates only lay them out, and
 * islands receive slices of them in the browser.
 */
import type { Lang } from './lang';
import type { PageKind } from './route';
import type { Strings } from './strings';

export interface NavLink {
  title: string;
  url: string;
  icon: string;
  /** True on the link of the page being shown (or of its section, for blog pages). */
  current: boolean;
}

export interface SocialLink {
  name: string;
  img: string;
  url: string;
}

/** What every page shows around its content: header, toolbar, drawer, footer. */
export interface Chrome {
  lang: Lang;
  kind: PageKind | 'notfound';
  /** The route name; 'notfound' on the Not Found page. */
  routeName: string;
  /** Edition URLs of this page by language; a missing language is not offered. */
  alternates: Partial<Record<Lang, string>>;
  strings: Strings;
  owner: {
    name: string;
    subtitle: string;
    avatar: string;
    avatarPicture?: Picture;
    cvUrl: string;
    socials: SocialLink[];
  };
  nav: NavLink[];
  flags: Record<Lang, string>;
  /**
   * Per target language: its name, the switch link's label, and the warning shown in that
   * language when the page does not offer it (docs/product.md, When something fails).
   */
  languages: Record<Lang, LanguageLabels>;
  /** The year of the build, shown in the footer and the drawer. */
  year: number;
}

export interface LanguageLabels {
  name: string;
  switchTo: string;
  warningTitle: string;
  warningText: string;
  dismiss: string;
}

/**
 * A raster image's published variants, for a `<picture>` (templates/pieces/Picture.tsx): a
 * `srcset` for each format the browser may pick, and the fallback's. SVG images have none.
 */
export interface Picture {
  /** The fallback at its widest: the `<img>`'s `src`. */
  src: string;
  /** The image's own size, for its box's aspect ratio. */
  width: number;
  height: number;
  /** AVIF and WebP, the best first. */
  sources: { type: string; srcset: string }[];
  /** The fallback's `srcset`. */
  srcset: string;
}

export interface FigureView {
  src: string;
  picture?: Picture;
  alt: string;
  caption: string;
  width?: number;
}

export interface CardView {
  src: string;
  picture?: Picture;
  alt: string;
  quote: string;
  writer: string;
  url: string;
  mobileTitle: string;
  mobileText: string;
}

export interface BreadcrumbView {
  title: string;
  url: string;
}

export interface AboutMeProps {
  kind: 'aboutme';
  title: string;
  banner: { videos: { src: string; type: string }[]; poster: string };
  greeting: string[];
  intro: { title: string; paragraphs: string[]; portrait: FigureView };
  quotesTitle: string;
  quotes: { text: string; author: string }[];
  sections: { id: string; heading: string; url: string; paragraphs: string[]; card: CardView }[];
  mediaTitle: string;
  media: {
    where: string;
    title: string;
    description: string;
    img: string;
    picture?: Picture;
    logo: string;
    link: string;
    imgWidth?: string;
    imgMarginBottom?: string;
  }[];
  hobbies: { title: string; paragraphs: string[] };
}

export interface ExperienceView {
  id: string;
  name: string;
  color: string;
  title: string;
  period: string;
  /** The dialog's long text, as HTML compiled from the content's markdown. */
  html: string;
  img: string;
  picture?: Picture;
  url: string;
}

export interface ProfessionalProps {
  kind: 'professional';
  title: string;
  hero: { tagline: string; image: string; picture?: Picture; contactUrl: string };
  experienceTitle: string;
  experiences: ExperienceView[];
  skillsTitle: string;
  skills: { title: string; items: { img: string; title: string }[] }[];
  valuesTitle: string;
  values: { img: string; title: string; description: string }[];
}

export interface ProjectsProps {
  kind: 'projects';
  title: string;
  intro: string;
  projects: {
    id: string;
    title: string;
    description: string;
    img: string;
    picture?: Picture;
    href: string;
    external: boolean;
    tags: string[];
  }[];
}

export interface LinkCardView {
  title: string;
  description: string;
  img: string;
  picture?: Picture;
  url: string;
}

export interface AtelierProps {
  kind: 'atelier';
  title: string;
  intro: string;
  videosTitle: string;
  playlists: LinkCardView[];
  viewsNote: string;
  articlesTitle: string;
  articlesCard: LinkCardView;
}

export interface ArticleLink {
  title: string;
  url: string;
  description?: string;
  /** YYYY-MM-DD, and as the page's language writes it. */
  date?: string;
  dateLabel?: string;
  /** "6 min read", in the page's language. */
  readingTime?: string;
  /** "Draft" or "Scheduled for 4 March 2027", in the page's language: shown only by builds that show drafts. */
  status?: string;
}

export interface BlogProps {
  kind: 'blog';
  title: string;
  intro: string;
  categories: {
    key: string;
    title: string;
    description: string;
    url: string;
    gallery: boolean;
    articles: ArticleLink[];
  }[];
}

export interface CategoryProps {
  kind: 'category';
  title: string;
  description: string;
  breadcrumbs: BreadcrumbView[];
  msg?: string;
  articles: ArticleLink[];
  /** Also list the articles as plain links. */
  plainLinks: boolean;
  links: { text: string; url: string; external: boolean }[];
}

export interface GalleryProps {
  kind: 'gallery';
  title: string;
  description: string;
  breadcrumbs: BreadcrumbView[];
  photos: { src: string; picture?: Picture; title: string; description: string }[];
}

export interface ArticleProps {
  kind: 'article';
  title: string;
  description: string;
  /** YYYY-MM-DD, and as the page's language writes it. */
  date: string;
  dateLabel: string;
  /** "6 min read", in the page's language. */
  readingTime: string;
  breadcrumbs: BreadcrumbView[];
  index?: { id: string; text: string }[];
  /** The compiled body: server-rendered HTML, never repeated in a JSON payload. */
  html: string;
  /** "Draft" or "Scheduled for 4 March 2027", in the page's language: shown only by builds that show drafts. */
  status?: string;
  /**
   * When the other edition changed since this one was last brought in line with it: the notice's
   * sentence around its link to that edition ("The ", "Portuguese version", " of this article ...").
   */
  outdated?: { before: string; link: string; after: string; url: string; lang: Lang };
  /** The articles published just before and just after this one, in its category and language. */
  previous?: { title: string; url: string };
  next?: { title: string; url: string };
}

export interface NotFoundProps {
  kind: 'notfound';
  title: string;
}

export type PageProps =
  | AboutMeProps
  | ProfessionalProps
  | ProjectsProps
  | AtelierProps
  | BlogProps
  | CategoryProps
  | GalleryProps
  | ArticleProps
  | NotFoundProps;

/**
 * The CSS of one page kind: its minified text, inlined in a <style> when small, or the site URLs
 * of its content-hashed files, linked in this order.
 */
export type PageStyles = { inline: string } | { links: string[] };

/** The head of one HTML document. */
export interface HeadProps {
  title: string;
  description: string;
  /** Absolute URL of this edition. */
  canonical: string;
  /** Absolute URLs of every edition, by hreflang, plus x-default. */
  alternates: { hreflang: string; href: string }[];
  /** The CSS of the page's kind only. */
  styles: PageStyles;
  /** URL of the client bundle, a module script (deferred, never render-blocking). */
  script: string;
  favicon: string;
  appleTouchIcon: string;
  manifest: string;
  /** The RSS feed of the page's language. */
  feed: { href: string; title: string };
  /**
   * Open Graph and Twitter card data; the image is the page's share card (an absolute URL, its size
   * in pixels and its alternative text).
   */
  share: {
    type: 'website' | 'article';
    image: { url: string; width: number; height: number; alt: string };
    siteName: string;
    locale: string;
    localeAlternates: string[];
  };
  /** Structured data (schema.org), written as JSON-LD. */
  jsonLd?: Record<string, unknown>;
}
