import type { CardView } from '../../src/shared/props';

/** A rotating card: the image on the front, the quote and its author on the back. */
export function FlipCard({ card }: { card: CardView }) {
  return (
    <div className="flip-card">
      <div className="flip-card__inner">
        <div className="flip-card__face flip-card__front">
          <img src={card.src} alt={card.alt} loading="lazy" decoding="async" />
          <span className="flip-card__mobile-title">{card.mobileTitle}</span>
        </div>
        <div className="flip-card__face flip-card__back">
          <blockquote>
            <p>“{card.quote}”</p>
            <footer>{card.writer}</footer>
          </blockquote>
          <p className="flip-card__mobile-text">{card.mobileText}</p>
        </div>
      </div>
    </div>
  );
}
