import { preload } from 'react-dom';
import type { Chrome, ProfessionalProps, Picture as Variants } from '../../src/shared/props';
import { NewTabLink } from '../pieces/NewTabLink';
import { Picture } from '../pieces/Picture';

export function Professional({ chrome, page }: { chrome: Chrome; page: ProfessionalProps }) {
  const s = chrome.strings;
  // The hero's picture is the largest paint on wide screens; as a CSS background the browser
  // would find it only once styles apply, so the head asks for it first. A photo is offered as
  // its widest AVIF, WebP and fallback (image-set), the AVIF preloaded for the browsers that show it.
  const hero = heroImage(page.hero.image, page.hero.picture);
  preload(hero.preload, { as: 'image', fetchPriority: 'high', ...(hero.type && { type: hero.type }) });
  return (
    <>
      <section className="hero body-height" style={{ backgroundImage: hero.background }}>
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
            <li key={card.id} className="experience__card" style={{ borderTopColor: card.color }} data-reveal="">
              <button
                type="button"
                className="experience__open"
                data-dialog-open={`experience-${card.id}`}
                aria-haspopup="dialog"
              >
                <Picture
                  className="experience__img"
                  src={card.img}
                  picture={card.picture}
                  sizes="(min-width: 900px) 23rem, 100vw"
                  alt=""
                  width={300}
                  height={200}
                  loading="lazy"
                  decoding="async"
                />
                <span className="experience__body">
                  <span className="experience__name">{card.name}</span>
                  <span className="experience__title">{card.title}</span>
                  <span className="experience__period">{card.period}</span>
                  <span className="experience__more">{s['professional.details']}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
        {page.experiences.map((card) => (
          <dialog
            key={card.id}
            id={`experience-${card.id}`}
            className="dialog experience-dialog"
            aria-labelledby={`experience-${card.id}-title`}
          >
            <Picture
              className="dialog__img"
              src={card.img}
              picture={card.picture}
              sizes="min(100vw, 40rem)"
              alt=""
              width={300}
              height={200}
              loading="lazy"
              decoding="async"
            />
            <div className="dialog__body">
              {/* biome-ignore lint/a11y/noAutofocus: in a <dialog>, autofocus names what showModal() focuses: the title, so the dialog opens at its top (its Close button, last, would scroll it to its end); the closed dialog takes no focus on page load */}
              <h3 id={`experience-${card.id}-title`} tabIndex={-1} autoFocus>
                {card.name} · {card.title}
              </h3>
              <p className="experience__period">{card.period}</p>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: compiled by our own markdown pipeline from the content's markdown */}
              <div className="prose" dangerouslySetInnerHTML={{ __html: card.html }} />
              <p>
                <NewTabLink href={card.url} note={s['external.newTab']}>
                  {s['professional.visit']} <span aria-hidden="true">↗</span>
                </NewTabLink>
              </p>
            </div>
            <div className="dialog__actions">
              <button type="button" className="button" data-dialog-close="">
                {s['dialog.close']}
              </button>
            </div>
          </dialog>
        ))}
      </section>

      <section id="skills" className="section">
        <h2>{page.skillsTitle}</h2>
        <div className="skills">
          {page.skills.map((group) => (
            <div key={group.title} className="skills__group" data-reveal="">
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
            <li key={value.title} className="values__item" data-reveal="">
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

/** The hero's background and what the head preloads: a photo's widest variants, or the image itself. */
function heroImage(
  image: string,
  picture: Variants | undefined,
): { background: string; preload: string; type?: string } {
  if (!picture) return { background: `url(${image})`, preload: image };
  const widest = (srcset: string) => srcset.split(', ').at(-1)?.split(' ')[0] ?? picture.src;
  const options = [
    ...picture.sources.map((source) => `url(${widest(source.srcset)}) type('${source.type}')`),
    `url(${picture.src})`,
  ];
  const best = picture.sources[0];
  return {
    background: `image-set(${options.join(', ')})`,
    preload: best ? widest(best.srcset) : picture.src,
    ...(best && { type: best.type }),
  };
}
