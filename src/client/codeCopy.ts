/**
 * A copy button on the bar of each code block of an article (see markdown/highlight.ts). The
 * script adds it, since without the script there is nothing to copy with; its words, in the page's
 * language, are on the article's body (`data-copy`, `data-copied`). After a copy the button says so
 * for two seconds, and a status line tells a screen reader.
 */
export function enableCodeCopy(root: Document): void {
  for (const prose of root.querySelectorAll<HTMLElement>('.prose[data-copy]')) {
    const { copy = '', copied = '' } = prose.dataset;
    for (const bar of prose.querySelectorAll<HTMLElement>('.code-block__bar')) {
      const button = root.createElement('button');
      button.type = 'button';
      button.className = 'code-block__copy';
      button.textContent = copy;
      const status = root.createElement('span');
      status.className = 'visually-hidden';
      status.setAttribute('role', 'status');
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
