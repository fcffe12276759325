import type { Chrome, ProfessionalProps } from '../../src/shared/props';
import { NewTabLink } from '../pieces/NewTabLink';

export function Professional({ chrome, page }: { chrome: Chrome; page: ProfessionalProps }) {
  const s = chrome.strings;
  return (
    <>
      <section className="hero" style={{ backgroundImage: `url(${page.hero.image})` }}>
        <div className="hero__content">
          <h1>{page.title}</h1>
          <p className="hero__tagline">{page.hero.tagline}</p>
          <NewTabLink className="button" href={page.hero.contactUrl} note={s['external.newTab']}>
            {s['professional.contact']}
          </NewTabLink>
        </div>
      </section>

      <section id="experience" className="section">
        <h2>{page.experienceTitle}</h2>
        <ul className="experience">
          {page.experiences.map((card) => (
            <li key={card.id} className="experience__card" style={{ borderTopColor: card.color }}>
              <img className="experience__img" src={card.img} alt="" width={300} height={200} loading="lazy" decoding="async" />
              <div className="experience__body">
                <h3>{card.name}</h3>
                <p className="experience__title">{card.title}</p>
                <p className="experience__period">{card.period}</p>
                <details className="experience__details">
                  <summary>{s['professional.details']}</summary>
                  <div className="prose" dangerouslySetInnerHTML={{ __html: card.html }} />
                  <NewTabLink href={card.url} note={s['external.newTab']}>
                    {s['professional.visit']} <span aria-hidden="true">↗</span>
                  </NewTabLink>
                </details>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section id="skills" className="section">
        <h2>{page.skillsTitle}</h2>
        <div className="skills">
          {page.skills.map((group) => (
            <div key={group.title} className="skills__group">
              <h3>{group.title}</h3>
              <ul>
                {group.items.map((item) => (
                  <li key={item.title}>
                    <img src={item.img} alt="" width={40} height={40} loading="lazy" decoding="async" />
                    <span>{item.title}</span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </section>

      <section id="values" className="section">
        <h2>{page.valuesTitle}</h2>
        <ul className="values">
          {page.values.map((value) => (
            <li key={value.title} className="values__item">
              <img src={value.img} alt="" width={240} height={160} loading="lazy" decoding="async" />
              <h3>{value.title}</h3>
              <p>{value.description}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
