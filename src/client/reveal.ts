/**
 * Entrance animations: elements marked data-reveal fade and rise into place the first time they
 * scroll into view. Without JavaScript, or with reduced motion, they are simply there.
 */
export function enableReveal(root: Document): void {
  const elements = [...root.querySelectorAll<HTMLElement>('[data-reveal]')];
  if (elements.length === 0 || !('IntersectionObserver' in window)) return;
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        entry.target.classList.add('reveal--in');
        observer.unobserve(entry.target);
      }
    },
    { rootMargin: '0px 0px -8% 0px' },
  );
  for (const element of elements) {
    element.classList.add('reveal');
    observer.observe(element);
  }
}
