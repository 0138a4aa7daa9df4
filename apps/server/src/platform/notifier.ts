import type { Channel } from '@tradewind/contract/auth';
import type { Language } from '@tradewind/contract/languages';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { translate } from './i18n.ts';
import { devOutbox } from './tables.ts';

export interface Notification {
  channel: Channel;
  to: string;
  subject: string;
  body: string;
  /** The language the message is written in (for the anti-phishing line); en when absent. */
  language?: Language;
}

/** Sends codes and notices by email (SMTP) or SMS (an HTTP webhook); in demo mode also keeps them in the dev outbox. */
export interface Notifier {
  available(channel: Channel): boolean;
  send(notification: Notification): Promise<void>;
}

const SMS_TIMEOUT_MS = 10_000;

export interface NotifierDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The anti-phishing code the account at this email address has set (security centre), if any. */
  antiPhishingCode?: (email: string) => Promise<string | null>;
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const { config, db, clock, log } = deps;

  /**
   * Every email carries the recipient's anti-phishing code, when they set one. It goes
   * last, so a message that starts with a code still shows that code first.
   */
  async function render(notification: Notification): Promise<Omit<Notification, 'language'>> {
    const { language = 'en', ...message } = notification;
    if (message.channel !== 'email' || !deps.antiPhishingCode) return message;
    const code = await deps.antiPhishingCode(message.to);
    if (!code) return message;
    return {
      ...message,
      body: `${message.body}\n\n${translate(language, 'notify.anti_phishing', { code })}`,
    };
  }
  const mailer = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;

  return {
    available(channel) {
      if (config.demoMode) return true;
      return channel === 'email' ? mailer !== undefined : config.smsWebhookUrl !== undefined;
    },
    async send(original) {
      const notification = await render(original);
      if (config.demoMode) {
        await db.insert(devOutbox).values({ ...notification, createdAt: clock.now() });
        log.info(
          { channel: notification.channel, to: notification.to, body: notification.body },
          'dev outbox',
        );
      }
      if (notification.channel === 'email' && mailer) {
        await mailer.sendMail({
          from: config.smtpFrom,
          to: notification.to,
          subject: notification.subject,
          text: notification.body,
        });
      } else if (notification.channel === 'phone' && config.smsWebhookUrl) {
        const response = await fetch(config.smsWebhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ to: notification.to, text: notification.body }),
          signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`SMS webhook answered ${response.status}`);
      }
    },
  };
}
