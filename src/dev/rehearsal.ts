/**
 * An article's text edited as an owner edits it, in turn: a paragraph added after the front matter
 * (a body edit), or its title changed (a front-matter edit, which its listings and links read).
 */
export function rehearsedEdit(text: string, run: number): string {
  const end = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(text)?.[0].length ?? 0;
  const [front, body] = [text.slice(0, end), text.slice(end)];
  const mark = `rehearsed by site dev (${run + 1})`;
  if (run % 2 === 1)
    return `${front.replace(/^title:[ \t]*(.*?)[ \t]*$/m, (_, title: string) => `title: ${JSON.stringify(`${unquoted(title)}, ${mark}`)}`)}${body}`;
  const lead = /^\s*/.exec(body)?.[0] ?? '';
  return `${front}${lead}A paragraph ${mark}.\n\n${body.slice(lead.length)}`;
}

/** A one-line YAML scalar's text, near enough for a rehearsal: its quotes taken off. */
function unquoted(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
