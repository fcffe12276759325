import { useEffect, useState } from 'react';

export interface QuoteCarouselProps {
  quotes: { text: string; author: string }[];
  label: string;
}

/** Spec section 9: the carousel moves every 5000 ms. */
export const QUOTE_CYCLE_MS = 5000;

/** The quote carousel: one quote at a time, the next every 5 s, wrapping, with no arrows. */
export function QuoteCarousel({ quotes, label }: QuoteCarouselProps) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (quotes.length < 2) return undefined;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % quotes.length), QUOTE_CYCLE_MS);
    return () => window.clearInterval(timer);
  }, [quotes.length]);

  return (
    <section className="quotes" aria-roledescription="carousel" aria-label={label}>
      {quotes.map((quote, i) => (
        <figure key={quote.text} className={`quotes__slide${i === index ? ' quotes__slide--active' : ''}`} aria-hidden={i !== index}>
          <blockquote>
            <p>“{quote.text}”</p>
          </blockquote>
          <figcaption>{quote.author}</figcaption>
        </figure>
      ))}
    </section>
  );
}
