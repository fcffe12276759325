import type { Chrome, NotFoundProps } from '../../src/shared/props';

export function NotFound({ chrome }: { chrome: Chrome; page: NotFoundProps }) {
  const s = chrome.strings;
  return (
    <section className="section not-found">
      <h1 className="not-found__message">{s['notFound.message']}</h1>
      <a className="button" href={chrome.nav[0]?.url}>
        {s['notFound.back']}
      </a>
    </section>
  );
}
