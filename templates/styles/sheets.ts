import type { PageProps } from '../../src/shared/props';

/**
 * The stylesheets of each page kind, relative to templates/styles/, in cascade order: base.css,
 * then the pieces the kind's templates use, then the kind's own sheet. The order matters where
 * rules of equal specificity meet (the gallery viewer overrides .dialog, its close button
 * overrides .button), so base.css always comes first and a page's own sheet last.
 * A page kind without rules of its own (the Atelier) lists only base.css and its pieces.
 */
export const PAGE_SHEETS: Readonly<Record<PageProps['kind'], readonly string[]>> = {
  aboutme: [
    'base.css',
    'pieces/button.css',
    'pieces/flip.css',
    'pieces/reveal.css',
    'pieces/card.css',
    'pages/aboutme.css',
  ],
  professional: [
    'base.css',
    'pieces/button.css',
    'pieces/dialog.css',
    'pieces/reveal.css',
    'pieces/prose.css',
    'pages/professional.css',
  ],
  projects: ['base.css', 'pieces/text.css', 'pieces/card.css', 'pages/projects.css'],
  atelier: ['base.css', 'pieces/text.css', 'pieces/hcard.css'],
  blog: ['base.css', 'pieces/text.css', 'pages/blog.css'],
  category: ['base.css', 'pieces/text.css', 'pieces/breadcrumb.css', 'pages/category.css'],
  gallery: [
    'base.css',
    'pieces/text.css',
    'pieces/button.css',
    'pieces/breadcrumb.css',
    'pieces/dialog.css',
    'pages/gallery.css',
  ],
  article: [
    'base.css',
    'pieces/text.css',
    'pieces/breadcrumb.css',
    'pieces/prose.css',
    'pieces/code.css',
    'pages/article.css',
  ],
  notfound: ['base.css', 'pieces/button.css', 'pages/notfound.css'],
};
