/**
 * A copy button on the bar of each code block of an article (see markdown/highlight.ts). The
 * script adds it, since without the script there is nothing to copy with; its words, in the page's
 * language, are on the article's body (`data-copy`, `data-copied`). After a copy the button says so
 * for two seconds, and a status line tells a screen reader. The elements it adds are marked
 * `data-added`; when `site dev` puts a new body in place it says so (`site:prose`), and the
 * buttons are added to the new blocks.
 */
export function enableCodeCopy(root: Document): void {
  addButtons(root);
  root.addEventListener('site:prose', () => addButtons(root));
}

function addButtons(root: Document): void {
  for (const prose of root.querySelectorAll<HTMLElement>('.prose[data-copy]')) {
    const { copy = '', copied = '' } = prose.dataset;
    for (const bar of prose.querySelectorAll<HTMLElement>('.code-block__bar:not(:has(> .code-block__copy))')) {
      const button = root.createElement('button');
      button.type = 'button';
      button.className = 'code-block__copy';
      button.textContent = copy;
      button.dataset.added = '';
      const status = root.createElement('span');
      status.className = 'visually-hidden';
      status.setAttribute('role', 'status');
      status.dataset.added = '';
      let reset: ReturnType<typeof setTimeout> | undefined;
      button.addEventListener('click', () => {
        const code = bar.nextElementSibling?.textContent ?? '';
        navigator.clipboard.writeText(code).then(
          () => {
            button.textContent = copied;
            status.textContent = copied;
            clearTimeout(reset);
            reset = setTimeout(() => {
              button.textContent = copy;
              status.textContent = '';
            }, 2000);
          },
          // A clipboard the browser refuses (no permission, an insecure origin): the code stays selectable.
          () => undefined,
        );
      });
      bar.append(button, status);
    }
  }
}
