import type { Chrome, ProjectsProps } from '../../src/shared/props';
import { NewTabLink } from '../pieces/NewTabLink';
import { Picture } from '../pieces/Picture';

export function Projects({ chrome, page }: { chrome: Chrome; page: ProjectsProps }) {
  const s = chrome.strings;
  return (
    <section className="section">
      <h1>{page.title}</h1>
      <p className="lead">{page.intro}</p>
      <ul className="cards">
        {page.projects.map((project, i) => (
          <li key={project.id} className="card">
            {/*
              Width and height give the card's 16:10 frame before the picture loads (CSS sizes it).
              The first picture is the page's largest paint: fetched at once and first, and preloaded.
            */}
            <Picture
              className="card__img"
              src={project.img}
              picture={project.picture}
              sizes="(min-width: 72rem) 23rem, (min-width: 40rem) 50vw, 100vw"
              alt=""
              width={480}
              height={300}
              loading={i === 0 ? 'eager' : 'lazy'}
              fetchPriority={i === 0 ? 'high' : undefined}
              decoding="async"
            />
            <div className="card__body">
              <h2 className="card__title">
                {project.external ? (
                  <NewTabLink href={project.href} note={s['external.newTab']}>
                    {project.title}
                  </NewTabLink>
                ) : (
                  <a href={project.href}>{project.title}</a>
                )}
              </h2>
              <p>{project.description}</p>
              {project.tags.length > 0 && (
                <ul className="tags">
                  {project.tags.map((tag) => (
                    <li key={tag}>{tag}</li>
                  ))}
                </ul>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
