import type { ComponentProps, ComponentType } from 'react';
import { ISLANDS, type IslandName } from './registry';
import { serializeProps } from './serialize';

/**
 * An interactive part of a page: rendered here, hydrated in the browser by the same component.
 * Its props travel in the JSON script that follows it; nothing else of the page is repeated.
 */
export function Island<N extends IslandName>({
  name,
  props,
  inline = false,
}: {
  name: N;
  props: ComponentProps<(typeof ISLANDS)[N]>;
  inline?: boolean;
}) {
  // The registry's union of components collapses to one component with the props checked above.
  const Component = ISLANDS[name] as unknown as ComponentType<object>;
  return (
    <>
      {/* An inline island (inside a paragraph) needs a span: a div would end the paragraph. */}
      {inline ? (
        <span className="island" data-island={name}>
          <Component {...props} />
        </span>
      ) : (
        <div className="island" data-island={name}>
          <Component {...props} />
        </div>
      )}
      <script
        type="application/json"
        data-island-props=""
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON made safe for a <script> by serializeProps (no "<", ">", U+2028, U+2029)
        dangerouslySetInnerHTML={{ __html: serializeProps(props) }}
      />
    </>
  );
}
