import { renderToString } from 'react-dom/server';
import { Document } from '../../templates/Document';
import type { DocumentInputs } from './inputs';

function toHtml(element: React.ReactElement): string {
  return `<!DOCTYPE html>${renderToString(element)}`;
}

/** One complete HTML document. */
export function renderDocument(inputs: DocumentInputs): string {
  return toHtml(<Document head={inputs.head} chrome={inputs.chrome} page={inputs.page} />);
}
