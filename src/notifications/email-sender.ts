import { createTransport } from 'nodemailer';
import type { EmailContent } from './channel-payloads';

/** Where and how mail goes: the deployment's SMTP server (SMTP_URL, SMTP_FROM, SMTP_PASSWORD_ENV). */
export interface SmtpSettings {
  url: string;
  from: string;
  password: string | undefined;
  timeoutMs: number;
  ca: Buffer | null;
}

export class EmailError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'EmailError';
  }
}

/**
 * The Message-ID of a delivery's mail, the same on every try: SMTP cannot say whether a mail whose
 * answer was lost arrived, so a try after a timeout may deliver it twice, and the reader's mail
 * system (or a person) knows the two as one message.
 */
export function deliveryMessageId(deliveryId: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'warden.invalid';
  return `<delivery-${deliveryId}@${domain}>`;
}

/** Sends one mail; an EmailError carries the SMTP reply code or the error's code, never the server's words. */
export async function sendEmail(
  smtp: SmtpSettings,
  to: string[],
  content: EmailContent,
  messageId: string,
): Promise<void> {
  const url = new URL(smtp.url);
  const secure = url.protocol === 'smtps:';
  const transport = createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: smtp.password ?? '' }
      : undefined,
    connectionTimeout: smtp.timeoutMs,
    greetingTimeout: smtp.timeoutMs,
    socketTimeout: smtp.timeoutMs,
    tls: smtp.ca ? { ca: smtp.ca } : undefined,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      transport.sendMail({
        from: smtp.from,
        to,
        subject: content.subject,
        text: content.text,
        messageId,
      }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new EmailError('timeout')), smtp.timeoutMs);
      }),
    ]);
  } catch (error) {
    if (error instanceof EmailError) throw error;
    const e = error as { responseCode?: number; code?: string; name?: string };
    throw new EmailError(e.responseCode ? `SMTP ${e.responseCode}` : (e.code ?? e.name ?? 'error'));
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
