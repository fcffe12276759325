/**
 * The body height (docs/product.md, Behaviour): 100 minus the header's height as a percentage of the window height.
 * It is kept in the CSS variable --body-height (a number of vh) for the About Me banner and the
 * Professional hero, and recomputed whenever the window is resized.
 *
 * Beside it, --toolbar-height: how far below the window's top focus and anchors must land to be
 * clear of the sticky toolbar (html's scroll-padding-top), measured, since large text or a narrow
 * window wraps the toolbar onto more lines; 0 where the toolbar does not stick (About Me, and
 * Professional on a phone). Without the script, the stylesheet's fallback stands.
 */
export function trackBodyHeight(root: Document): void {
  const header = root.querySelector<HTMLElement>('.site-header');
  const toolbar = root.querySelector<HTMLElement>('.toolbar');
  const update = () => {
    const headerHeight = header && header.offsetParent !== null ? header.offsetHeight : 0;
    const percent = 100 - (headerHeight / window.innerHeight) * 100;
    root.documentElement.style.setProperty('--body-height', percent.toFixed(3));
    const sticky = toolbar && getComputedStyle(toolbar).position === 'sticky';
    // A little room between the toolbar and what lands below it, so a focus ring shows whole.
    root.documentElement.style.setProperty('--toolbar-height', sticky ? `${toolbar.offsetHeight + 8}px` : '0px');
  };
  update();
  window.addEventListener('resize', update);
  if (toolbar && 'ResizeObserver' in window) new ResizeObserver(update).observe(toolbar);
}
