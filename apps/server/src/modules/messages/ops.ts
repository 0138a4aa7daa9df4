import { broadcastRequestSchema } from '@tradewind/contract/messages';
import { translate } from '#platform/i18n.ts';
import type { OpsCommands } from '../operator/ops-commands.ts';
import { broadcastMessage } from './service.ts';

export const messagesOpsCommands: OpsCommands = {
  'messages:broadcast': {
    usage:
      'messages:broadcast --title "…" --body "…" [--title-de "…" --body-de "…" (any of zh_TW zh_CN es fr it de)] --operator USERNAME',
    needsOperator: true,
    async run({ db, hub, clock, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const texts = (field: 'title' | 'body') => {
        const out: Record<string, string | undefined> = { en: options[field] };
        for (const language of ['zh_TW', 'zh_CN', 'es', 'fr', 'it', 'de'])
          if (options[`${field}-${language}`]) out[language] = options[`${field}-${language}`];
        return out;
      };
      const parsed = broadcastRequestSchema.safeParse({
        title: texts('title'),
        body: texts('body'),
      });
      if (!parsed.success)
        throw new Error(
          parsed.error.issues
            .map((i) => `--${i.path.join('-')}: ${translate('en', i.message)}`)
            .join('; '),
        );
      const sent = await broadcastMessage(db, hub, clock.now(), operator, parsed.data);
      return `broadcast #${sent.broadcastId} sent to ${sent.recipients} users`;
    },
  },
};
