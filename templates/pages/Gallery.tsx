import type { Chrome, GalleryProps } from '../../src/shared/props';
import { CategoryHeader } from '../pieces/CategoryHeader';
import { Picture } from '../pieces/Picture';

/**
 * A gallery: 3 photos a row on wide screens, 2 on small ones; the description shows over a photo
 * on hover, and a click opens the dialog (src/client/gallery.ts) with arrows through the photos.
 */
export function Gallery({ chrome, page }: { chrome: Chrome; page: GalleryProps }) {
  const s = chrome.strings;
  return (
    <section className="section">
      <CategoryHeader
        breadcrumbs={page.breadcrumbs}
        title={page.title}
        description={page.description}
        label={s['breadcrumb.label']}
      />
      <ul className="gallery" data-gallery="">
        {page.photos.map((photo, i) => (
          <li key={photo.src} className="gallery__item">
            <button type="button" className="gallery__open" data-photo-index={i} aria-haspopup="dialog">
              {/* The first row loads at once, the first photo first (the largest paint on wide screens), decoded with the page. */}
              <Picture
                src={photo.src}
                picture={photo.picture}
                sizes="(min-width: 72rem) 23rem, (min-width: 768px) 33vw, 50vw"
                alt={photo.description}
                width={800}
                height={600}
                loading={i < 3 ? 'eager' : 'lazy'}
                fetchPriority={i === 0 ? 'high' : undefined}
                decoding={i < 3 ? undefined : 'async'}
              />
              <span className="gallery__caption">
                <span className="gallery__title" data-photo-title="">
                  {photo.title}
                </span>
                <span className="gallery__description" data-photo-text="">
                  {photo.description}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <dialog id="gallery-dialog" className="dialog gallery-dialog" aria-labelledby="gallery-dialog-title">
        <button type="button" className="dialog__x" data-dialog-close="" aria-label={s['dialog.close']}>
          <span aria-hidden="true">×</span>
        </button>
        <div className="gallery-dialog__stage">
          <button
            type="button"
            className="gallery-dialog__arrow gallery-dialog__arrow--previous"
            data-gallery-previous=""
            aria-label={s['gallery.previous']}
          >
            <span aria-hidden="true">‹</span>
          </button>
          {/* Hidden until the viewer opens: lazy, so it is neither preloaded nor fetched before. */}
          <img
            className="gallery-dialog__img"
            data-gallery-image=""
            src={page.photos[0]?.src}
            alt={page.photos[0]?.description ?? ''}
            width={800}
            height={600}
            loading="lazy"
          />
          <button
            type="button"
            className="gallery-dialog__arrow gallery-dialog__arrow--next"
            data-gallery-next=""
            aria-label={s['gallery.next']}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
        <div className="gallery-dialog__details">
          <h2 id="gallery-dialog-title" className="gallery-dialog__title" data-gallery-title="">
            {page.photos[0]?.title}
          </h2>
          <p className="gallery-dialog__text" data-gallery-text="">
            {page.photos[0]?.description}
          </p>
          <p className="gallery-dialog__counter" data-gallery-counter="" aria-live="polite" />
          <button type="button" className="button gallery-dialog__close" data-dialog-close="">
            {s['dialog.close']}
          </button>
        </div>
      </dialog>
    </section>
  );
}
