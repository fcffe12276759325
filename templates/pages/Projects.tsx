import type { Chrome, ProjectsProps } from '../../src/shared/props';

export function Projects({ chrome, page }: { chrome: Chrome; page: ProjectsProps }) {
  const s = chrome.strings;
  return (
    <section className="section">
      <h1>{page.title}</h1>
      <p className="lead">{page.intro}</p>
      <ul className="cards">
        {page.projects.map((project) => (
          <li key={project.id} className="card">
            <img className="card__img" src={project.img} alt="" loading="lazy" decoding="async" />
            <div className="card__body">
              <h2 className="card__title">
                <a href={project.href} {...(project.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                  {project.title}
                  {project.external && <span className="visually-hidden"> ({s['external.newTab']})</span>}
                </a>
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
