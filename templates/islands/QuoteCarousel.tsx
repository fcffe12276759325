import { useEffect, useState } from 'react';
import { MotionToggle, prefersReducedMotion } from './MotionToggle';

export interface QuoteCarouselProps {
  quotes: { text: string; author: string }[];
  label: string;
  pause: string;
  play: string;
  /** What the pause control stops: "the quotes". */
  what: string;
}

/** docs/product.md, Constants: the carousel moves every 5000 ms. */
export const QUOTE_CYCLE_MS = 5000;

/**
 * The quote carousel: one quote at a time, the next every 5 s, wrapping, with no arrows. A pause
 * control stops and restarts it (WCAG 2.2.2); where the reader asked for reduced motion it stands
 * still on the first quote until played. Turning, it is not announced (each change would interrupt
 * a screen reader); paused, the quote shown is, politely.
 */
export function QuoteCarousel({ quotes, label, pause, play, what }: QuoteCarouselProps) {
  const [index, setIndex] = useState(0);
  // Undecided (null) until the reader's motion setting is read, after hydration: the server cannot know it.
  const [paused, setPaused] = useState<boolean | null>(null);
  useEffect(() => setPaused(prefersReducedMotion()), []);
  useEffect(() => {
    if (quotes.length < 2 || paused !== false) return undefined;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % quotes.length), QUOTE_CYCLE_MS);
    return () => window.clearInterval(timer);
  }, [quotes.length, paused]);

  return (
    <section className="quotes" aria-roledescription="carousel" aria-label={label}>
      <div className="quotes__slides" aria-live={paused ? 'polite' : 'off'}>
        {quotes.map((quote, i) => (
          <figure
            key={quote.text}
            className={`quotes__slide${i === index ? ' quotes__slide--active' : ''}`}
            aria-hidden={i !== index}
          >
            <blockquote>
              <p>“{quote.text}”</p>
            </blockquote>
            <figcaption>{quote.author}</figcaption>
          </figure>
        ))}
      </div>
      {quotes.length > 1 && (
        <MotionToggle
          paused={paused === true}
          onToggle={() => setPaused((p) => !p)}
          pause={pause}
          play={play}
          what={what}
        />
      )}
    </section>
  );
}
