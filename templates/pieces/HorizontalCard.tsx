import type { LinkCardView } from '../../src/shared/props';
import { NewTabLink } from './NewTabLink';

/** A wide card with an image and text that links out, opening in a new tab. */
export function HorizontalCard({ card, action, newTabLabel }: { card: LinkCardView; action: string; newTabLabel: string }) {
  return (
    <NewTabLink className="hcard" href={card.url}>
      <img className="hcard__img" src={card.img} alt="" loading="lazy" decoding="async" />
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
