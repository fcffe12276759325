import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { isLang, type Lang } from '../src/shared/lang';
import { prefixLang } from '../src/shared/route';
import { MIN_TERM_LENGTH, type SearchResult } from '../src/shared/search';
import { NEWSLETTER_TEXT } from './messages';
import { mailAddress } from './newsletter/address';
import type { Newsletter } from './newsletter/service';
import type { SiteStore } from './storage/store';
import { hasValidXsrf } from './xsrf';

export interface ApiOptions {
  store: SiteStore;
  /** Sign-ups: stored with their consent, confirmed by e-mail. */
  newsletter: Newsletter;
  /** The blog search in a language's index (loaded from dist/search/). */
  search: (lang: Lang, term: string) => Promise<SearchResult[]>;
  /** Writes allowed per client and window (429 beyond). */
  rateLimit: { max: number; timeWindow: number };
}

const NewsletterRequest = z.object({
  // Longer than any address, so that an over-long one gets the answer of an address that is not
  // valid (mailAddress), as the form shows it; the body limit bounds it anyway.
  email: z.string().max(4096),
  /** The language of the page the form was on; taken from the referring page when absent. */
  language: z.string().optional(),
});

/**
 * The longest search term answered. The search's time grows with the term (every word is looked
 * up, forgiving typos): a term this long is answered at once, while one of the 16 KB a URL can
 * carry would hold the server's one thread, and every request behind it, for a noticeable time.
 * A longer term gets 400 (the search box then searches in the browser).
 */
export const MAX_TERM_LENGTH = 200;

function refererLang(referer: string | undefined): Lang {
  try {
    return referer ? prefixLang(new URL(referer).pathname) : 'en';
  } catch {
    return 'en';
  }
}

/** Response shapes: Fastify compiles a serializer from each, faster than JSON.stringify. */
const text = { type: 'string' } as const;
const SEARCH_ANSWER = {
  type: 'object',
  properties: {
    data: {
      type: 'array',
      items: { type: 'object', properties: { id: text, title: text, category: text, endpoint: text } },
    },
  },
} as const;
const PROBLEM = { type: 'object', properties: { error: text, message: text } } as const;

/** The site's API (docs/api.md): the visit counter, the newsletter and the blog search. */
export const api: FastifyPluginAsync<ApiOptions> = async (app, { store, newsletter, search, rateLimit }) => {
  const writes = { config: { rateLimit } };

  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'POST' && !hasValidXsrf(request)) {
      return reply.code(403).send({ error: 'Forbidden', message: 'missing or wrong anti-forgery token' });
    }
    return undefined;
  });

  app.post('/view_count/increment', writes, async (_request, reply) => {
    await store.incrementViews();
    return reply.code(204).send();
  });

  app.get('/view_count', async () => ({ count: await store.viewCount() }));

  app.get(
    '/blog_posts/search',
    { schema: { response: { 200: SEARCH_ANSWER, 400: PROBLEM } } },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const language = query.language;
      const term = typeof query.searchWord === 'string' ? query.searchWord.trim() : '';
      if (!isLang(language))
        return reply.code(400).send({ error: 'Bad Request', message: 'language must be "en" or "pt"' });
      if (term.length < MIN_TERM_LENGTH)
        return reply
          .code(400)
          .send({ error: 'Bad Request', message: `searchWord needs more than ${MIN_TERM_LENGTH - 1} characters` });
      if (term.length > MAX_TERM_LENGTH)
        return reply
          .code(400)
          .send({ error: 'Bad Request', message: `searchWord has more than ${MAX_TERM_LENGTH} characters` });
      return { data: await search(language, term) };
    },
  );

  app.post('/newsletter', writes, async (request, reply) => {
    const parsed = NewsletterRequest.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: 'Bad Request', message: 'expected {"email": string}' });
    const { email, language } = parsed.data;
    if (language !== undefined && !isLang(language))
      return reply.code(400).send({ error: 'Bad Request', message: `unknown language "${language}"` });
    const lang = language ?? refererLang(request.headers.referer);
    const address = mailAddress(email);
    if (!address) return { success: false, text: NEWSLETTER_TEXT.invalid };
    // The same answer whatever the address's state: it must not tell anyone who subscribed.
    await newsletter.signUp(address, lang);
    request.log.info('newsletter: a sign-up');
    return { success: true, text: NEWSLETTER_TEXT.checkInbox };
  });
};
