import type { Chrome, GalleryProps } from '../../src/shared/props';
import { Breadcrumb } from '../pieces/Breadcrumb';

export function Gallery({ chrome, page }: { chrome: Chrome; page: GalleryProps }) {
  return (
    <section className="section">
      <Breadcrumb items={page.breadcrumbs} label={chrome.strings['breadcrumb.label']} />
      <h1>{page.title}</h1>
      <p className="lead">{page.description}</p>
      <ul className="gallery">
        {page.photos.map((photo) => (
          <li key={photo.src} className="gallery__item">
            <figure>
              <img src={photo.src} alt={photo.description} width={800} height={600} loading="lazy" decoding="async" />
              <figcaption>
                <span className="gallery__title">{photo.title}</span>
                <span className="gallery__description">{photo.description}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
