/**
 * The spec's body height: 100 minus the header's height as a percentage of the window height.
 * It is kept in the CSS variable --body-height (a number of vh) for the About Me banner and the
 * Professional hero, and recomputed whenever the window is resized.
 */
export function trackBodyHeight(root: Document): void {
  const header = root.querySelector<HTMLElement>('.site-header');
  const update = () => {
    const headerHeight = header && header.offsetParent !== null ? header.offsetHeight : 0;
    const percent = 100 - (headerHeight / window.innerHeight) * 100;
    root.documentElement.style.setProperty('--body-height', percent.toFixed(3));
  };
  update();
  window.addEventListener('resize', update);
}
