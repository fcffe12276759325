import type { Chrome } from '../../src/shared/props';
import { Island } from '../islands/Island';
import { NewTabLink } from '../pieces/NewTabLink';
import { languageSwitchProps } from './languageSwitchProps';

/** Footer: social links, language entry, newsletter form, visit counter and the year. */
export function Footer({ chrome }: { chrome: Chrome }) {
  const s = chrome.strings;
  return (
    <footer className="site-footer">
      <div className="site-footer__grid">
        <section className="site-footer__about">
          <p className="site-footer__name">{chrome.owner.name}</p>
          <p className="site-footer__subtitle">{chrome.owner.subtitle}</p>
          <nav aria-label={s['footer.social']}>
            <ul className="site-footer__socials">
              {chrome.owner.socials.map((social) => (
                <li key={social.url}>
                  <NewTabLink href={social.url} note={s['external.newTab']}>
                    <img src={social.img} alt="" width={24} height={24} loading="lazy" decoding="async" />
                    <span>{social.name}</span>
                  </NewTabLink>
                </li>
              ))}
            </ul>
          </nav>
        </section>
        <nav className="site-footer__nav" aria-label={s['footer.nav']}>
          <ul>
            {chrome.nav.map((link) => (
              <li key={link.url}>
                <a href={link.url}>{link.title}</a>
              </li>
            ))}
          </ul>
          <div className="site-footer__language">
            <span>{s['footer.language']}: </span>
            <Island name="LanguageSwitch" props={languageSwitchProps(chrome, 'footer')} />
          </div>
          <a className="site-footer__cv" href={chrome.owner.cvUrl} download>
            {s['cv.download']}
          </a>
        </nav>
        <section className="newsletter" aria-labelledby="newsletter-title">
          <h2 id="newsletter-title" className="newsletter__title">
            {s['newsletter.title']}
          </h2>
          <p className="newsletter__text">{s['newsletter.text']}</p>
          <Island
            name="NewsletterForm"
            props={{
              lang: chrome.lang,
              label: s['newsletter.label'],
              placeholder: s['newsletter.placeholder'],
              submit: s['newsletter.submit'],
              invalid: s['newsletter.invalid'],
              empty: s['newsletter.empty'],
            }}
          />
        </section>
      </div>
      <div className="site-footer__bottom">
        <p>
          {s['counter.label']}
          {': '}
          <Island name="VisitCounter" inline props={{ lang: chrome.lang, comingSoon: s['counter.comingSoon'] }} />
        </p>
        <p>
          © {chrome.year} {chrome.owner.name}. {s['footer.rights']}
        </p>
      </div>
    </footer>
  );
}
