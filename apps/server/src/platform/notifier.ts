import type { Channel } from '@tradewind/contract/auth';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { devOutbox } from './tables.ts';

export interface Notification {
  channel: Channel;
  to: string;
  subject: string;
  body: string;
}

/** Sends codes and notices by email (SMTP) or SMS (an HTTP webhook); in demo mode also keeps them in the dev outbox. */
export interface Notifier {
  available(channel: Channel): boolean;
  send(notification: Notification): Promise<void>;
}

const SMS_TIMEOUT_MS = 10_000;

export function createNotifier(deps: { config: Config; db: Db; clock: Clock; log: FastifyBaseLogger }): Notifier {
  const { config, db, clock, log } = deps;
  const mailer = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;

  return {
    available(channel) {
      if (config.demoMode) return true;
      return channel === 'email' ? mailer !== undefined : config.smsWebhookUrl !== undefined;
    },
    async send(notification) {
      if (config.demoMode) {
        await db.insert(devOutbox).values({ ...notification, createdAt: clock.now() });
        log.info({ channel: notification.channel, to: notification.to, body: notification.body }, 'dev outbox');
      }
      if (notification.channel === 'email' && mailer) {
        await mailer.sendMail({ from: config.smtpFrom, to: notification.to, subject: notification.subject, text: notification.body });
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
