import type { FigureView } from '../../src/shared/props';

/** An image with its description in the page's language, optionally at a width percentage. */
export function ArticleFigure({ figure, className = '' }: { figure: FigureView; className?: string }) {
  return (
    <figure className={`figure ${className}`.trim()} style={figure.width ? { width: `${figure.width}%` } : undefined}>
      <img src={figure.src} alt={figure.alt} loading="lazy" decoding="async" />
      <figcaption>{figure.caption}</figcaption>
    </figure>
  );
}
