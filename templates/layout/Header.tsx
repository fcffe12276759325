import type { Chrome } from '../../src/shared/props';
import { Picture } from '../pieces/Picture';

/** Desktop header: avatar, name and subtitle. */
export function Header({ chrome }: { chrome: Chrome }) {
  const home = chrome.nav[0]?.url ?? '/aboutme';
  return (
    <header className="site-header">
      <a className="site-header__brand" href={home}>
        {/* Small and decorative: loaded at once, but low priority keeps React from preloading it. */}
        <Picture
          className="site-header__avatar"
          src={chrome.owner.avatar}
          picture={chrome.owner.avatarPicture}
          sizes="56px"
          alt=""
          width={56}
          height={56}
          fetchPriority="low"
        />
        <span className="site-header__text">
          <span className="site-header__name">{chrome.owner.name}</span>
          <span className="site-header__subtitle">{chrome.owner.subtitle}</span>
        </span>
      </a>
      <a className="site-header__cv" href={chrome.owner.cvUrl} download>
        {chrome.strings['cv.download']}
      </a>
    </header>
  );
}
