/**
 * Whether an address leaves the site: an absolute http(s) URL. Everything else a page carries is
 * a site path ("/blog/...", "/media/..."), a fragment, or a mailto:/tel: address.
 */
export function isExternal(href: string): boolean {
  return /^https?:\/\//i.test(href);
}
