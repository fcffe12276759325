/** The mark of an article not published yet ("Draft", "Scheduled for 4 March 2027"), in builds that show drafts. */
export function Status({ text }: { text: string | undefined }) {
  return text ? <span className="status">{text}</span> : null;
}
