import { useEffect, useState } from 'react';
import type { CardView } from '../../src/shared/props';
import { FlipCard } from '../pieces/FlipCard';
import { Picture } from '../pieces/Picture';

export interface RotatingCardProps {
  card: CardView;
  /** Accessible name of the card where a click turns it. */
  label: string;
}

/** Spec section 9: the card flips on click only at this width or less. */
export const MOBILE_MAX_WIDTH = 767;
/** Spec section 9: the back face becomes visible this long after the card turns. */
export const BACK_FACE_DELAY_MS = 1300;

/**
 * The About Me cards: an image with a quote and its author on the back. At 767 px or less a click
 * turns the card; wider, it turns on hover and any click-turned card resets. The back's content
 * appears 1300 ms after the card turns.
 */
export function RotatingCard({ card, label }: RotatingCardProps) {
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
    const timer = window.setTimeout(() => setBackVisible(true), BACK_FACE_DELAY_MS);
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
      front={
        <>
          {/* Width and height give the card's 4:5 frame before the picture loads (CSS sizes it). */}
          <Picture src={card.src} picture={card.picture} sizes="(min-width: 768px) 25rem, calc(100vw - 2.5rem)" alt={card.alt} width={400} height={500} loading="lazy" decoding="async" />
          {mobile && <span className="rotating-card__title">{card.mobileTitle}</span>}
        </>
      }
      back={
        <div className={`rotating-card__back${backVisible ? ' rotating-card__back--visible' : ''}`}>
          <blockquote>
            <p>“{card.quote}”</p>
            {card.writer && <footer>{card.writer}</footer>}
          </blockquote>
          {mobile && card.mobileText && <p className="rotating-card__text">{card.mobileText}</p>}
        </div>
      }
    />
  );
}
