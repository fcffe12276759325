import { renderToString } from 'react-dom/server';
import { Document } from '../../templates/Document';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { type DocumentInputs, editionInputs, notFoundInputs, type RenderContext } from './inputs';

function toHtml(element: React.ReactElement): string {
  return `<!DOCTYPE html>${renderToString(element)}`;
}

/** One complete HTML document. */
export function renderDocument(inputs: DocumentInputs): string {
  return toHtml(<Document head={inputs.head} chrome={inputs.chrome} page={inputs.page} />);
}

/** The HTML document of one edition: a route in one of its languages. */
export function renderEdition(ctx: RenderContext, route: Route, lang: Lang): string {
  return renderDocument(editionInputs(ctx, route, lang));
}

/** The Not Found page in one language (served with status 404). */
export function renderNotFound(ctx: RenderContext, lang: Lang): string {
  return renderDocument(notFoundInputs(ctx, lang));
}
