/**
 * The content model: one zod schema per entity of the specification (section 3), and the shape
 * of every file under content/. Field names follow the specification (`img_url`, `modal_text`)
 * so a record can be traced back to it. Everything downstream of `load` works on the parsed,
 * typed values; nothing re-validates them.
 */
import { z } from 'zod';
import { isoDay } from '../shared/date';
import { LANGUAGES } from '../shared/lang';
import { type StringKey, UI_STRING_KEYS } from '../shared/strings';

export const Lang = z.enum(LANGUAGES);

/**
 * Issues of an address field that are URL001 rather than SCHEMA001: a scheme the field does not
 * take (javascript:, data:, ftp:), or a "site path" that leaves the site ("//host").
 */
export const ADDRESS_RULE = 'URL001';

function refuseAddress(ctx: z.RefinementCtx, message: string): void {
  ctx.addIssue({ code: 'custom', message, params: { rule: ADDRESS_RULE } });
}

function checkSitePath(value: string, ctx: z.RefinementCtx): void {
  if (!/^\/[^\s]*$/.test(value))
    ctx.addIssue({ code: 'custom', message: 'must be a site path starting with "/" (for example "/blog/tech")' });
  // Browsers read "//host/x" (and "/\\host/x") as another site's address.
  else if (/^\/[/\\]/.test(value))
    refuseAddress(ctx, `"${value}" leaves the site: a site path starts with a single "/"`);
}

function checkWebAddress(value: string, ctx: z.RefinementCtx): void {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'https' && scheme !== 'http')
    refuseAddress(ctx, `a ${scheme}: address; this field takes an https:// address`);
  // http: is accepted here and reported by the checker as HTTP001, a warning.
  else if (!/^https?:\/\/[^/?#\s]+[^\s]*$/i.test(value) || !URL.canParse(value))
    ctx.addIssue({ code: 'custom', message: 'must be an absolute https:// address' });
}

/** An absolute site path: starts with a single '/', no spaces. May carry a `#fragment`. */
export const SitePath = z.string().superRefine(checkSitePath);

/** A file under content/media, referenced by its site path ("/media/..."). */
export const MediaPath = z.string().regex(/^\/media\/[^\s]+$/, 'must be a media path starting with "/media/"');

/** An absolute https:// address (http:// too, with the HTTP001 warning); no other scheme. */
export const HttpsUrl = z.string().superRefine(checkWebAddress);

/** A site path (internal) or an https:// address (external). */
export const LinkTarget = z
  .string()
  .min(1)
  .superRefine((value, ctx) => (value.startsWith('/') ? checkSitePath(value, ctx) : checkWebAddress(value, ctx)));

/** Localized text: en and/or pt. Sometimes only one key is present (docs/product.md, Content model). */
export const LocalizedText = z
  .object({ en: z.string().min(1).optional(), pt: z.string().min(1).optional() })
  .strict()
  .refine((t) => t.en !== undefined || t.pt !== undefined, {
    message: 'needs at least one of "en" or "pt"',
  });

/** Text that every page shows in both languages, so both keys are required. */
export const BilingualText = z.object({ en: z.string().min(1), pt: z.string().min(1) }).strict();

export const NavigationItem = z.object({ title: BilingualText, path: SitePath, icon: z.string().min(1) }).strict();

export const SocialIcon = z
  .object({
    /** Which network: shown as the link's accessible name. */
    name: z.string().min(1),
    img: MediaPath,
    url: HttpsUrl,
  })
  .strict();

export const ExperienceCard = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    /** Accent colour of the card, a CSS colour. */
    color: z.string().min(1),
    title: BilingualText,
    period: BilingualText,
    /** Localized long text of the dialog, written in markdown (rendered to HTML at build). */
    modal_text: BilingualText,
    img_url: MediaPath,
    url: HttpsUrl,
  })
  .strict();

export const SkillGroup = z
  .object({
    title: BilingualText,
    items: z.array(z.object({ img_url: MediaPath, title: z.string().min(1) }).strict()).min(1),
  })
  .strict();

export const ValueItem = z.object({ img_url: MediaPath, title: BilingualText, description: BilingualText }).strict();

export const MediaItem = z
  .object({
    /** The outlet: a hackathon, a community site, a newspaper. */
    where: z.string().min(1),
    title: BilingualText,
    /** A picture of the piece. */
    img_url: MediaPath,
    /** The outlet's logo. */
    media_url: MediaPath,
    link: HttpsUrl,
    description: BilingualText,
    img_url_margin_bottom: z.string().optional(),
    img_url_width: z.string().optional(),
  })
  .strict();

/** A figure: an image with a localized description; rotating cards add a quote and its author. */
export const Figure = z
  .object({
    img: MediaPath,
    description: BilingualText,
    /** Width as a percentage of the column, 1 to 100. */
    width: z.number().int().min(1).max(100).optional(),
    quote: BilingualText.optional(),
    writer: z.string().optional(),
    route: SitePath.optional(),
    mobileTitle: BilingualText.optional(),
    mobileText: BilingualText.optional(),
  })
  .strict();

export const Quote = z.object({ text: BilingualText, author: z.string().min(1) }).strict();

export const BreadcrumbItem = z.object({ title: LocalizedText, path: SitePath }).strict();

export const LinkItem = z.object({ text: LocalizedText, url: LinkTarget }).strict();

export const IndexItem = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]+$/), text: LocalizedText }).strict();

export const GalleryPhoto = z.object({ img_url: MediaPath, title: BilingualText, description: BilingualText }).strict();

/**
 * A route (docs/product.md, Content model: path, name, component, meta.availableLangs). Routes are derived
 * from content, never written by hand; the schema states their invariants for tests and tools.
 */
export const RouteRecord = z
  .object({
    path: SitePath,
    name: z.string().min(1),
    component: z.enum(['aboutme', 'professional', 'projects', 'atelier', 'blog', 'category', 'gallery', 'article']),
    meta: z.object({ availableLangs: z.array(Lang).min(1).max(2) }).strict(),
  })
  .strict();

/** A hand-written article list entry (title keyed by language, path). */
export const ArticleListEntry = z.object({ title: LocalizedText, path: SitePath }).strict();

// ---------------------------------------------------------------------------------------------
// Files under content/

/** content/site.json */
export const SiteConfig = z
  .object({
    /** Absolute base URL of the published site, without a trailing slash. */
    baseUrl: HttpsUrl,
    /** Optional image-CDN base URL; when set, every "/media/..." URL is rewritten to it. */
    imageCdn: HttpsUrl.optional(),
    defaultLang: Lang,
    /** The flag image of each language, shown by the language switch. */
    flags: z.object({ en: MediaPath, pt: MediaPath }).strict(),
    favicon: MediaPath,
    /** PNG icons for the web manifest (home screens), with their sizes. */
    icons: z.array(z.object({ src: MediaPath, sizes: z.string().regex(/^\d+x\d+$/) }).strict()).min(1),
    /** The 180 px icon iOS uses on home screens. */
    appleTouchIcon: MediaPath,
  })
  .strict();

/** content/owner.json */
export const Owner = z
  .object({
    name: z.string().min(1),
    subtitle: BilingualText,
    avatar: MediaPath,
    cv: z.object({ file: MediaPath }).strict(),
    /** Professional network, code host, video channel, in that order. */
    socials: z.array(SocialIcon).length(3),
  })
  .strict();

/** content/navigation.json: the four entries of header, drawer and footer. */
export const Navigation = z.array(NavigationItem).length(4);

/**
 * content/strings.json: every UI string the templates use. A key missing a language is a
 * translation diagnostic (I18N001) of the checker rather than a schema error.
 */
export const UiStrings = z
  .object(
    Object.fromEntries(UI_STRING_KEYS.map((key) => [key, LocalizedText])) as Record<StringKey, typeof LocalizedText>,
  )
  .strict();

/** Head metadata every page file carries. */
const PageMeta = {
  title: BilingualText,
  description: BilingualText,
};

export const SectionCard = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    heading: BilingualText,
    /** The page the heading links to. */
    path: SitePath,
    paragraphs: z.array(BilingualText).min(1),
    card: Figure,
  })
  .strict();

/** content/pages/aboutme.json */
export const AboutMePage = z
  .object({
    ...PageMeta,
    /** The video banner: its sources in order of preference (webm, then mp4), and the poster frame. */
    banner: z.object({ videos: z.array(MediaPath).min(1), poster: MediaPath }).strict(),
    /** The typewriter greeting: the strings typed in turn, per language. */
    greeting: z.object({ en: z.array(z.string().min(1)).min(1), pt: z.array(z.string().min(1)).min(1) }).strict(),
    intro: z
      .object({
        title: BilingualText,
        paragraphs: z.array(BilingualText).min(1),
        portrait: Figure,
      })
      .strict(),
    quotes: z.array(Quote).length(4),
    sections: z.array(SectionCard).min(1),
    mediaTitle: BilingualText,
    media: z.array(MediaItem).length(4),
    hobbies: z.object({ title: BilingualText, paragraphs: z.array(BilingualText).min(1) }).strict(),
  })
  .strict();

/** content/pages/professional.json */
export const ProfessionalPage = z
  .object({
    ...PageMeta,
    hero: z.object({ tagline: BilingualText, image: MediaPath, contactUrl: HttpsUrl }).strict(),
    experienceTitle: BilingualText,
    experiences: z.array(ExperienceCard).length(5),
    skillsTitle: BilingualText,
    skills: z.array(SkillGroup).length(3),
    valuesTitle: BilingualText,
    values: z.array(ValueItem).length(3),
  })
  .strict();

export const Project = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    title: BilingualText,
    description: BilingualText,
    img: MediaPath,
    /** A site path (internal) or an https URL (opens in a new tab). */
    link: LinkTarget,
    tags: z.array(z.string().min(1)).default([]),
  })
  .strict();

/** content/pages/projects.json */
export const ProjectsPage = z.object({ ...PageMeta, intro: BilingualText, projects: z.array(Project).min(1) }).strict();

export const Playlist = z
  .object({ title: BilingualText, description: BilingualText, img: MediaPath, url: HttpsUrl })
  .strict();

/** content/pages/atelier.json */
export const AtelierPage = z
  .object({
    ...PageMeta,
    intro: BilingualText,
    videosTitle: BilingualText,
    playlists: z.array(Playlist).length(3),
    viewsNote: BilingualText,
    articlesTitle: BilingualText,
    articlesCard: Playlist,
  })
  .strict();

/** content/pages/blog.json */
export const BlogPage = z
  .object({
    ...PageMeta,
    intro: BilingualText,
    /** The order of the categories on the Blog index: every category key once. */
    categories: z.array(z.string().min(1)).min(1),
    /**
     * Hand-picked articles shown under a category on the Blog index, by category key, each with
     * its title per language; a category without an entry lists all its articles.
     */
    highlights: z.record(z.string(), z.array(ArticleListEntry).min(1)).optional(),
  })
  .strict();

/** content/categories/<key>.json */
export const Category = z
  .object({
    /** Title shown on the listing, with its emoji. */
    title: BilingualText,
    description: BilingualText,
    /** Path prefix of the category's pages, "/blog/<key>". */
    blogcategory: SitePath,
    /** Route name, equal to the category key (the file name). */
    blogCategoryName: z.string().regex(/^[a-z]+$/),
    kind: z.enum(['listing', 'gallery']),
    /** A note shown above the list (for example while a category has no articles yet). */
    msg: LocalizedText.optional(),
    /** Hand-written trail; when absent the trail is Blog > category. */
    breadcrumbs: z.array(BreadcrumbItem).optional(),
    /** Extra plain links shown under the list. */
    links: z.array(LinkItem).optional(),
    /** Also list the articles as plain links under the list (the music listing, docs/product.md, Pages). */
    plainLinks: z.boolean().optional(),
    /** Gallery categories: exactly 12 photos. */
    photos: z.array(GalleryPhoto).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.kind === 'gallery' && c.photos?.length !== 12) {
      ctx.addIssue({ code: 'custom', path: ['photos'], message: 'a gallery has exactly 12 photos' });
    }
    if (c.kind === 'listing' && c.photos !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['photos'], message: 'only a gallery has photos' });
    }
  });

/**
 * Front matter of an article edition: content/blog/<category>/<Slug>.<lang>.md.
 * The category, slug and language come from the file's path.
 */
export const ArticleFrontMatter = z
  .object({
    title: z.string().min(1),
    /**
     * Shown under the title in listings, and the meta description. Optional for a page with nothing
     * to describe yet (the ORM article is its heading alone, docs/product.md, Pages): its title
     * stands in where one is needed.
     */
    description: z.string().min(1).optional(),
    /** Publication date, YYYY-MM-DD. */
    date: z
      .union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD'), z.date()], {
        error: 'must be a date written YYYY-MM-DD',
      })
      .transform((d) => (typeof d === 'string' ? d : isoDay(d))),
    /** Image shown in listings and link previews. */
    cover: MediaPath.optional(),
    /** Hand-written trail; when absent the trail is Blog > category > article. */
    breadcrumbs: z.array(BreadcrumbItem).optional(),
    /**
     * An index list of the article's sections: `true` lists every second-level heading,
     * or a hand-written list of {id, text}.
     */
    index: z.union([z.literal(true), z.array(IndexItem).min(1)]).optional(),
    /**
     * Not published yet: `site dev` and `site build --drafts` show it, marked "Draft"; `site build`
     * leaves it out of every output. An article dated after the build's day is held back the same way.
     */
    draft: z.boolean().optional(),
  })
  .strict();

export type Lang = z.infer<typeof Lang>;
export type LocalizedText = z.infer<typeof LocalizedText>;
export type BilingualText = z.infer<typeof BilingualText>;
export type NavigationItem = z.infer<typeof NavigationItem>;
export type SocialIcon = z.infer<typeof SocialIcon>;
export type ExperienceCard = z.infer<typeof ExperienceCard>;
export type SkillGroup = z.infer<typeof SkillGroup>;
export type ValueItem = z.infer<typeof ValueItem>;
export type MediaItem = z.infer<typeof MediaItem>;
export type Figure = z.infer<typeof Figure>;
export type Quote = z.infer<typeof Quote>;
export type BreadcrumbItem = z.infer<typeof BreadcrumbItem>;
export type LinkItem = z.infer<typeof LinkItem>;
export type IndexItem = z.infer<typeof IndexItem>;
export type GalleryPhoto = z.infer<typeof GalleryPhoto>;
export type ArticleListEntry = z.infer<typeof ArticleListEntry>;
export type SiteConfig = z.infer<typeof SiteConfig>;
export type Owner = z.infer<typeof Owner>;
export type UiStrings = z.infer<typeof UiStrings>;
export type SectionCard = z.infer<typeof SectionCard>;
export type AboutMePage = z.infer<typeof AboutMePage>;
export type ProfessionalPage = z.infer<typeof ProfessionalPage>;
export type Project = z.infer<typeof Project>;
export type ProjectsPage = z.infer<typeof ProjectsPage>;
export type Playlist = z.infer<typeof Playlist>;
export type AtelierPage = z.infer<typeof AtelierPage>;
export type BlogPage = z.infer<typeof BlogPage>;
export type Category = z.infer<typeof Category>;
export type ArticleFrontMatter = z.infer<typeof ArticleFrontMatter>;
