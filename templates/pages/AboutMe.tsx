import { preload } from 'react-dom';
import type { AboutMeProps, Chrome } from '../../src/shared/props';
import { Island } from '../islands/Island';
import { NewTabLink } from '../pieces/NewTabLink';
import { Picture } from '../pieces/Picture';

export function AboutMe({ chrome, page }: { chrome: Chrome; page: AboutMeProps }) {
  const s = chrome.strings;
  // The banner video's poster is the largest paint until the video plays: the head asks for it first.
  preload(page.banner.poster, { as: 'image', fetchPriority: 'high' });
  return (
    <>
      <section className="banner body-height" aria-labelledby="greeting">
        {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a video without controls is not focusable; this one is decoration, hidden from assistive technology */}
        <video className="banner__video" autoPlay muted loop playsInline poster={page.banner.poster} aria-hidden="true">
          {/* Only for readers who have not asked for reduced motion: for the others the video is its poster, and nothing is downloaded until they press Play (islands/Typewriter.tsx). */}
          {page.banner.videos.map((v) => (
            <source key={v.src} src={v.src} type={v.type} media="(prefers-reduced-motion: no-preference)" />
          ))}
        </video>
        <div className="banner__overlay">
          <h1 id="greeting" className="banner__title">
            {page.title}
          </h1>
          <Island
            name="Typewriter"
            props={{ texts: page.greeting, pause: s['motion.pause'], play: s['motion.play'], what: s['motion.banner'] }}
          />
        </div>
      </section>

      <section id="intro" className="section intro" data-reveal="">
        <div className="intro__text">
          <h2>{page.intro.title}</h2>
          <ul className="intro__bullets">
            {page.intro.paragraphs.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
        <div className="intro__portrait">
          <Island
            name="RotatingCard"
            props={{
              card: {
                src: page.intro.portrait.src,
                picture: page.intro.portrait.picture,
                alt: page.intro.portrait.alt,
                quote: page.intro.portrait.caption,
                writer: '',
                url: '',
                mobileTitle: '',
                mobileText: '',
              },
              id: 'portrait-card',
              label: s['aboutme.turn'].replace('{title}', s['aboutme.portrait']),
            }}
          />
          <p className="intro__caption">{page.intro.portrait.caption}</p>
        </div>
      </section>

      <Island
        name="QuoteCarousel"
        props={{
          quotes: page.quotes,
          label: page.quotesTitle,
          pause: s['motion.pause'],
          play: s['motion.play'],
          what: s['motion.quotes'],
        }}
      />

      {page.sections.map((section, i) => (
        <section
          key={section.id}
          id={section.id}
          className={`section story${i % 2 ? ' story--reverse' : ''}`}
          data-reveal=""
        >
          <div className="story__text">
            <h2>
              <a href={section.url}>{section.heading}</a>
            </h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
            <a className="button button--ghost" href={section.url}>
              {s['aboutme.readMore']} <span aria-hidden="true">→</span>
            </a>
          </div>
          <div className="story__card">
            <Island
              name="RotatingCard"
              props={{
                card: section.card,
                id: `${section.id}-card`,
                label: s['aboutme.turn'].replace('{title}', section.card.mobileTitle || section.heading),
              }}
            />
          </div>
        </section>
      ))}

      <section id="media" className="section media">
        <h2>{page.mediaTitle}</h2>
        <ul className="media__list">
          {page.media.map((item) => (
            <li key={item.link} className="media__item" data-reveal="">
              {/* Width and height give the 16:10 frame and the logo's ratio before they load (CSS sizes both). */}
              <Picture
                className="media__img"
                src={item.img}
                picture={item.picture}
                sizes="(min-width: 768px) 30rem, calc(100vw - 2.5rem)"
                alt=""
                width={480}
                height={300}
                loading="lazy"
                decoding="async"
              />
              <div className="media__body">
                <img
                  className="media__logo"
                  src={item.logo}
                  alt={item.where}
                  width={160}
                  height={60}
                  loading="lazy"
                  decoding="async"
                />
                <h3>{item.title}</h3>
                <p>{item.description}</p>
                <NewTabLink href={item.link} note={s['external.newTab']}>
                  {s['media.open']} {item.where} <span aria-hidden="true">↗</span>
                </NewTabLink>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section id="hobbies" className="section hobbies" data-reveal="">
        <h2>{page.hobbies.title}</h2>
        {page.hobbies.paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </section>
    </>
  );
}
