import { EmailButton, EmailFrame, type EmailFrameProps, MAIL } from './EmailFrame';

export interface ConfirmEmailProps extends Omit<EmailFrameProps, 'children' | 'unsubscribe'> {
  text: string;
  action: string;
  /** The page whose button confirms (a GET of it changes nothing). */
  confirmUrl: string;
}

/** The double opt-in e-mail: one button to the confirmation page; the footer says what to do if it was not you. */
export function ConfirmEmail({ text, action, confirmUrl, ...frame }: ConfirmEmailProps) {
  return (
    <EmailFrame {...frame}>
      <h1 style={{ margin: '0 0 12px', fontFamily: MAIL.serif, fontSize: '24px', lineHeight: 1.25, color: MAIL.navy }}>
        {frame.title}
      </h1>
      <p style={{ margin: 0 }}>{text}</p>
      <EmailButton href={confirmUrl}>{action}</EmailButton>
      <p className="mail-muted" style={{ margin: 0, fontSize: '13px', color: MAIL.muted, wordBreak: 'break-all' }}>
        {confirmUrl}
      </p>
    </EmailFrame>
  );
}
