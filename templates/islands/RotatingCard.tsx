import { useEffect, useState } from 'react';
import type { CardView } from '../../src/shared/props';
import { FlipCard } from '../pieces/FlipCard';
import { Picture } from '../pieces/Picture';

export interface RotatingCardProps {
  card: CardView;
  /** The card's id on the page: its back's text, which describes it, is `${id}-back`. */
  id: string;
  /** Accessible name of the card: which card, and that pressing turns it ("Turn the card: Blog"). */
  label: string;
}

/** docs/product.md, Constants: the card flips on click only at this width or less. */
export const MOBILE_MAX_WIDTH = 767;
/** docs/product.md, Constants: the back face becomes visible this long after the card turns. */
export const BACK_FACE_DELAY_MS = 1300;

/**
 * The About Me cards: an image with a quote and its author on the back (the portrait: its caption,
 * which is no quote). At 767 px or less a click turns the card; wider, it turns on hover or focus
 * and any click-turned card resets. At every width it is a toggle button named after the card,
 * that Enter and Space turn, described by its back's text. The back's content appears 1300 ms
 * after the card turns, as the turn ends; at once where the reader asked for reduced motion, as
 * the card then turns with no animation.
 */
export function RotatingCard({ card, id, label }: RotatingCardProps) {
  const [mobile, setMobile] = useState(false);
  const [flipped, setFlipped] = useState(false);
  const [backVisible, setBackVisible] = useState(false);

  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${MOBILE_MAX_WIDTH}px)`);
    const update = () => {
      setMobile(query.matches);
      if (!query.matches) setFlipped(false);
    };
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);

  useEffect(() => {
    if (!flipped) {
      setBackVisible(false);
      return undefined;
    }
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const timer = window.setTimeout(() => setBackVisible(true), still ? 0 : BACK_FACE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [flipped]);

  return (
    <FlipCard
      className="rotating-card"
      width="100%"
      height="26rem"
      activeClick={mobile}
      activeHover={!mobile}
      value={flipped}
      onChange={setFlipped}
      label={label}
      describedBy={`${id}-back`}
      front={
        <>
          {/* Width and height give the card's 4:5 frame before the picture loads (CSS sizes it). */}
          <Picture
            src={card.src}
            picture={card.picture}
            sizes="(min-width: 768px) 25rem, calc(100vw - 2.5rem)"
            alt={card.alt}
            width={400}
            height={500}
            loading="lazy"
            decoding="async"
          />
          {mobile && card.mobileTitle && <span className="rotating-card__title">{card.mobileTitle}</span>}
        </>
      }
      back={
        <div className={`rotating-card__back${backVisible ? ' rotating-card__back--visible' : ''}`}>
          {card.writer ? (
            <blockquote id={`${id}-back`}>
              <p>“{card.quote}”</p>
              <footer>{card.writer}</footer>
            </blockquote>
          ) : (
            <p id={`${id}-back`} className="rotating-card__caption">
              {card.quote}
            </p>
          )}
          {mobile && card.mobileText && <p className="rotating-card__text">{card.mobileText}</p>}
        </div>
      }
    />
  );
}
