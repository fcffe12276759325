/**
 * Dialogs over server-rendered content (the Professional experience dialogs): a button with
 * data-dialog-open="<id>" opens the <dialog> with that id as a modal, at its top (focus on the
 * element marked autofocus, its title); its data-dialog-close
 * button, Escape or a click on the backdrop close it. The native modal keeps focus inside and
 * gives it back to the button on close. The dialog text stays in the HTML, never in JSON.
 */
export function enableDialogs(root: Document): void {
  root.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const opener = target?.closest<HTMLElement>('[data-dialog-open]');
    if (opener) {
      const dialog = root.getElementById(opener.dataset.dialogOpen ?? '');
      if (dialog instanceof HTMLDialogElement) {
        dialog.showModal();
        // A dialog opens at its top, whatever took focus in it.
        dialog.scrollTop = 0;
        lockScroll(dialog);
      }
      return;
    }
    if (target instanceof HTMLDialogElement && target.open) {
      // A click on the backdrop lands on the dialog element itself.
      target.close();
      return;
    }
    const closer = target?.closest<HTMLElement>('[data-dialog-close]');
    closer?.closest('dialog')?.close();
  });
}

/** Locks page scrolling while a modal is open and restores it when it closes. */
export function lockScroll(dialog: HTMLDialogElement): void {
  const { body } = dialog.ownerDocument;
  const previous = body.style.overflow;
  body.style.overflow = 'hidden';
  dialog.addEventListener('close', () => (body.style.overflow = previous), { once: true });
}
