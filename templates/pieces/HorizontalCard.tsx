import type { LinkCardView } from '../../src/shared/props';
import { NewTabLink } from './NewTabLink';
import { Picture } from './Picture';

/**
 * A wide card with an image and text that links out, opening in a new tab. `first` marks the
 * page's first card, whose picture is fetched at once and first: on narrow screens it is the
 * largest paint. Width and height give the 16:9 frame before the picture loads (CSS sizes it).
 */
export function HorizontalCard({
  card,
  action,
  newTabLabel,
  first = false,
}: {
  card: LinkCardView;
  action: string;
  newTabLabel: string;
  first?: boolean;
}) {
  return (
    <NewTabLink className="hcard" href={card.url}>
      <Picture
        className="hcard__img"
        src={card.img}
        picture={card.picture}
        sizes="(min-width: 768px) 16rem, calc(100vw - 2.5rem)"
        alt=""
        width={480}
        height={270}
        loading={first ? 'eager' : 'lazy'}
        fetchPriority={first ? 'high' : undefined}
        decoding="async"
      />
      <span className="hcard__body">
        <span className="hcard__title">{card.title}</span>
        <span className="hcard__text">{card.description}</span>
        <span className="hcard__action">
          {action} <span aria-hidden="true">↗</span>
          <span className="visually-hidden"> ({newTabLabel})</span>
        </span>
      </span>
    </NewTabLink>
  );
}
