import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { LANGUAGES, type Lang } from '../../src/shared/lang';
import { bilingualUrl, homeUrl } from '../../src/shared/route';
import { type PageShell, renderNewsletterPage } from './page';
import { CONFIRM_PATH, type Newsletter, UNSUBSCRIBE_PATH } from './service';
import type { SiteWords } from './siteWords';

export interface NewsletterPagesOptions {
  newsletter: Newsletter;
  words: () => Promise<SiteWords>;
  /** The built Not Found page's shell in a language (page.ts). */
  shell: (lang: Lang) => Promise<PageShell>;
}

/** A token is 16 digits at most, a dot and 22 characters; anything longer is not one. */
const FORM_LIMIT = 1024;

type Notice = 'confirm' | 'confirmed' | 'leave' | 'left' | 'badLink';

/**
 * The confirmation and unsubscribe pages, in both languages, outside /api (they are pages, reached
 * from an e-mail). A GET only shows a page with a button, since mail scanners open every link; the
 * button's POST acts. The unsubscribe URL is also the `List-Unsubscribe` target: a mail program's
 * RFC 8058 one-click POST (`List-Unsubscribe=One-Click`, token in the URL, no cookie of ours)
 * unsubscribes and gets 200. The token is the only authority: no anti-forgery cookie is asked.
 */
export const newsletterPages: FastifyPluginAsync<NewsletterPagesOptions> = async (
  app,
  { newsletter, words, shell },
) => {
  // The button's form and the one-click POST are form-encoded (RFC 8058 allows multipart too);
  // their only field of use is the token, which the URL may carry instead.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => {
      const token = /name="token"\r?\n\r?\n([^\r\n]*)/.exec(String(body))?.[1];
      done(null, token ? { token } : {});
    },
  );

  /** A newsletter page: which one (its path), in which language, what it says, and the token its button sends. */
  const page = async (
    reply: FastifyReply,
    { lang, path, token, notice }: { lang: Lang; path: string; token?: string | undefined; notice: Notice },
    status = 200,
  ) => {
    const w = await words();
    const s = w.strings[lang];
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    const acts = notice === 'confirm' || notice === 'leave';
    const html = renderNewsletterPage({
      words: w,
      shell: await shell(lang),
      lang,
      alternates: Object.fromEntries(LANGUAGES.map((l) => [l, `${bilingualUrl(path, l)}${query}`])) as Record<
        Lang,
        string
      >,
      notice: {
        title: s[`newsletter.${notice}.title`],
        text: s[`newsletter.${notice}.text`],
        ...(acts && token
          ? {
              form: {
                action: bilingualUrl(path, lang),
                token,
                button: s[`newsletter.${notice as 'confirm' | 'leave'}.button`],
              },
            }
          : {}),
        home: { label: s['newsletter.home'], url: homeUrl(lang) },
      },
      year: new Date().getFullYear(),
    });
    return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  };

  const tokenOf = (request: FastifyRequest): string | undefined => {
    const body = request.body as Record<string, unknown> | undefined;
    const query = request.query as Record<string, unknown>;
    const token = (typeof body?.token === 'string' && body.token) || query.token;
    return typeof token === 'string' && token.length <= 64 ? token : undefined;
  };

  for (const lang of LANGUAGES) {
    app.get(bilingualUrl(CONFIRM_PATH, lang), async (request, reply) => {
      const token = tokenOf(request);
      const found = await newsletter.confirmable(token);
      if (!found.ok) return page(reply, { lang, path: CONFIRM_PATH, notice: 'badLink' }, 400);
      return page(reply, {
        lang,
        path: CONFIRM_PATH,
        token,
        notice: found.subscriber.state === 'confirmed' ? 'confirmed' : 'confirm',
      });
    });
    app.post(bilingualUrl(CONFIRM_PATH, lang), async (request, reply) => {
      const done = await newsletter.confirm(tokenOf(request));
      if (!done.ok) return page(reply, { lang, path: CONFIRM_PATH, notice: 'badLink' }, 400);
      request.log.info('newsletter: a subscription was confirmed');
      return page(reply, { lang, path: CONFIRM_PATH, notice: 'confirmed' });
    });
    app.get(bilingualUrl(UNSUBSCRIBE_PATH, lang), async (request, reply) => {
      const token = tokenOf(request);
      const found = await newsletter.leavable(token);
      if (!found.ok) return page(reply, { lang, path: UNSUBSCRIBE_PATH, notice: 'badLink' }, 400);
      return page(reply, { lang, path: UNSUBSCRIBE_PATH, token, notice: 'leave' });
    });
    app.post(bilingualUrl(UNSUBSCRIBE_PATH, lang), async (request, reply) => {
      if (!(await newsletter.leave(tokenOf(request))))
        return page(reply, { lang, path: UNSUBSCRIBE_PATH, notice: 'badLink' }, 400);
      request.log.info('newsletter: a subscriber left');
      return page(reply, { lang, path: UNSUBSCRIBE_PATH, notice: 'left' });
    });
  }
};
