import { type ComponentType, type ReactNode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { ISLANDS, type IslandName } from '../../templates/islands/registry';

/**
 * Hydrates every island of the page with the component the server rendered it with. The props
 * are in the JSON script right after each island; the rest of the page stays static HTML.
 * React and the islands are this chunk; `main.ts` loads it once the page has loaded. Each island
 * starts in a task of its own, after the one that evaluated this chunk, so that no task keeps
 * the main thread long from a reader's input; resolves once every island has started. Once every
 * island is hydrated (its effects have run: its timers set, its listeners on), the page's root
 * element is marked `data-hydrated`.
 */
export async function hydrateIslands(root: Document): Promise<void> {
  const elements = [...root.querySelectorAll<HTMLElement>('[data-island]')];
  let waiting = elements.length;
  const hydrated = () => {
    waiting -= 1;
    if (waiting === 0) root.documentElement.dataset.hydrated = '';
  };
  for (const element of elements) {
    await nextTask();
    const name = element.dataset.island as IslandName;
    const Component = ISLANDS[name] as unknown as ComponentType<Record<string, unknown>> | undefined;
    const script = element.nextElementSibling;
    if (!Component || !(script instanceof HTMLScriptElement) || !script.hasAttribute('data-island-props')) {
      console.error(`Island "${name}" cannot be hydrated`);
      hydrated();
      continue;
    }
    hydrateRoot(
      element,
      <Hydrated then={hydrated}>
        <Component {...(JSON.parse(script.textContent ?? '{}') as Record<string, unknown>)} />
      </Hydrated>,
    );
  }
}

/**
 * An island as it is (no element of its own), calling `then` once hydrated: a parent's effects run
 * after its children's.
 */
function Hydrated({ children, then }: { children: ReactNode; then: () => void }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the island is first committed
  useEffect(() => then(), []);
  return children;
}

/** Resolves in a task of its own, after the tasks already queued (React's work on the islands started before). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}
