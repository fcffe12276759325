import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { ISLANDS, type IslandName } from '../../templates/islands/registry';
import { trackBodyHeight } from './bodyHeight';
import { enableCodeCopy } from './codeCopy';
import { enableDialogs } from './dialogs';
import { enableGallery } from './gallery';
import { enableReveal } from './reveal';
import { countVisit } from './visits';

/**
 * Hydrates every island of the page with the component the server rendered it with. The props
 * are in the JSON script right after each island; the rest of the page stays static HTML.
 */
function hydrateIslands(): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island as IslandName;
    const Component = ISLANDS[name] as unknown as ComponentType<Record<string, unknown>> | undefined;
    const script = element.nextElementSibling;
    if (!Component || !(script instanceof HTMLScriptElement) || !script.hasAttribute('data-island-props')) {
      console.error(`Island "${name}" cannot be hydrated`);
      continue;
    }
    hydrateRoot(element, <Component {...(JSON.parse(script.textContent ?? '{}') as Record<string, unknown>)} />);
  }
}

hydrateIslands();
trackBodyHeight(document);
enableDialogs(document);
enableGallery(document);
enableReveal(document);
enableCodeCopy(document);
void countVisit();
