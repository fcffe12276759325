import type { AtelierProps, Chrome } from '../../src/shared/props';
import { HorizontalCard } from '../pieces/HorizontalCard';

export function Atelier({ chrome, page }: { chrome: Chrome; page: AtelierProps }) {
  const s = chrome.strings;
  return (
    <section className="section">
      <h1>{page.title}</h1>
      <p className="lead">{page.intro}</p>
      <h2>{page.videosTitle}</h2>
      <p className="note">{page.viewsNote}</p>
      <ul className="hcards">
        {page.playlists.map((card, i) => (
          <li key={card.url}>
            <HorizontalCard
              card={card}
              action={s['atelier.watch']}
              newTabLabel={s['external.newTab']}
              first={i === 0}
            />
          </li>
        ))}
      </ul>
      <h2>{page.articlesTitle}</h2>
      <HorizontalCard card={page.articlesCard} action={s['atelier.read']} newTabLabel={s['external.newTab']} />
    </section>
  );
}
