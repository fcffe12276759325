/** What one of the newsletter's pages says, in the subscriber's language. */
export interface NewsletterNoticeProps {
  title: string;
  text: string;
  /** The button that confirms or unsubscribes: a plain form, so it works before (and without) any script. */
  form?: { action: string; token: string; button: string };
  home: { label: string; url: string };
}

/**
 * The confirm and unsubscribe pages (rendered by the server on request, inside the site's layout):
 * a heading, a sentence, and either the one button that acts or the way back to the site.
 */
export function NewsletterNotice({ title, text, form, home }: NewsletterNoticeProps) {
  return (
    <section className="section not-found newsletter-notice">
      <h1 className="not-found__message">{title}</h1>
      <p className="lead">{text}</p>
      {form ? (
        <form method="post" action={form.action}>
          <input type="hidden" name="token" value={form.token} />
          <button className="button" type="submit">
            {form.button}
          </button>
        </form>
      ) : (
        <a className="button" href={home.url}>
          {home.label}
        </a>
      )}
    </section>
  );
}
