import { lockScroll } from './dialogs';

/**
 * The gallery dialog: a click on a photo opens it large, with arrows that step through the
 * gallery and stop at the first and last photo (no wrap). The photos' titles and descriptions
 * are read from the grid already on the page.
 */
/** How wide the dialog shows a photo (templates/styles/pages/gallery.css). */
const DIALOG_SIZES = 'min(60rem, calc(100vw - 2rem))';

export function enableGallery(root: Document): void {
  const dialog = root.getElementById('gallery-dialog');
  const grid = root.querySelector<HTMLElement>('[data-gallery]');
  if (!(dialog instanceof HTMLDialogElement) || !grid) return;
  const items = [...grid.querySelectorAll<HTMLButtonElement>('[data-photo-index]')];
  const image = dialog.querySelector<HTMLImageElement>('[data-gallery-image]')!;
  const title = dialog.querySelector<HTMLElement>('[data-gallery-title]')!;
  const text = dialog.querySelector<HTMLElement>('[data-gallery-text]')!;
  const previous = dialog.querySelector<HTMLButtonElement>('[data-gallery-previous]')!;
  const next = dialog.querySelector<HTMLButtonElement>('[data-gallery-next]')!;
  const counter = dialog.querySelector<HTMLElement>('[data-gallery-counter]');
  let index = 0;

  const show = (to: number) => {
    // The arrow that has focus may be the one this step disables: focus then moves on (below).
    const focused = root.activeElement;
    index = Math.max(0, Math.min(items.length - 1, to));
    const item = items[index]!;
    const img = item.querySelector('img')!;
    // A photo published as variants: the dialog picks from the format the grid's <picture> chose, at its own width.
    const shown = img.currentSrc ? new URL(img.currentSrc).pathname : '';
    const variants =
      [...item.querySelectorAll('source')].find((source) => shown && source.srcset.includes(shown))?.srcset ??
      img.srcset;
    if (variants) {
      image.sizes = DIALOG_SIZES;
      image.srcset = variants;
    } else image.removeAttribute('srcset');
    image.src = img.currentSrc || img.src;
    image.alt = img.alt;
    title.textContent = item.querySelector('[data-photo-title]')?.textContent ?? '';
    text.textContent = item.querySelector('[data-photo-text]')?.textContent ?? '';
    previous.disabled = index === 0;
    next.disabled = index === items.length - 1;
    if (counter) counter.textContent = `${index + 1} / ${items.length}`;
    if (focused instanceof HTMLButtonElement && focused.disabled && dialog.open) {
      // To the other arrow, or the close button shown at this width when both are disabled.
      const other = focused === next ? previous : next;
      const closers = [...dialog.querySelectorAll<HTMLButtonElement>('[data-dialog-close]')];
      (other.disabled ? closers.find((button) => button.offsetParent !== null) : other)?.focus();
    }
  };

  grid.addEventListener('click', (event) => {
    const item = (event.target as Element).closest<HTMLButtonElement>('[data-photo-index]');
    if (!item) return;
    show(Number(item.dataset.photoIndex));
    dialog.showModal();
    lockScroll(dialog);
  });
  previous.addEventListener('click', () => show(index - 1));
  next.addEventListener('click', () => show(index + 1));
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft') show(index - 1);
    if (event.key === 'ArrowRight') show(index + 1);
  });
  dialog.addEventListener('close', () => items[index]?.focus());
}
