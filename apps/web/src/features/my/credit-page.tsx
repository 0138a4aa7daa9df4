import { List, Skeleton, Tag } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime } from '@/lib/format.ts';
import { Page } from '@/ui/page.tsx';
import { useCredit } from './api/get-credit.ts';

const signed = (points: number) => (points > 0 ? `+${points}` : String(points));

/** /Credit: the score, the published rules that make it, and the user's own events. */
export function CreditPage() {
  const { t, i18n } = useTranslation();
  const credit = useCredit();
  const data = credit.data;
  return (
    <Page title={t('credit.title')} backTo="/My">
      <section className="tw-card" style={{ textAlign: 'center' }} aria-label={t('credit.title')}>
        {data ? (
          <>
            <div
              style={{ fontSize: 44, fontWeight: 700, lineHeight: 1.1 }}
              data-testid="credit-score"
            >
              {data.score}
            </div>
            <div className="tw-muted" style={{ marginTop: 4 }}>
              {t('credit.range', { min: data.min, max: data.max })}
            </div>
            <div className="tw-credit-bar" aria-hidden>
              <span
                style={{
                  width: `${Math.round(((data.score - data.min) / (data.max - data.min)) * 100)}%`,
                }}
              />
            </div>
          </>
        ) : (
          <Skeleton.Paragraph lineCount={2} animated />
        )}
      </section>

      <section className="tw-card" aria-labelledby="credit-rules">
        <h2 id="credit-rules" style={{ fontSize: 16, margin: '0 0 6px' }}>
          {t('credit.rules_title')}
        </h2>
        <p className="tw-muted" style={{ margin: '0 0 10px', fontSize: 13, lineHeight: 1.5 }}>
          {t('credit.rules_intro', {
            base: data?.base ?? 100,
            min: data?.min ?? 0,
            max: data?.max ?? 200,
          })}
        </p>
        {data && (
          <table className="tw-credit-rules">
            <tbody>
              <tr>
                <td>{t('credit.base')}</td>
                <td className="tw-num">{data.base}</td>
              </tr>
              {data.rules.map((rule) => (
                <tr key={rule.kind}>
                  <td>
                    {t(`credit.kind.${rule.kind}`)}
                    {rule.oncePerUser && <span className="tw-muted"> · {t('credit.once')}</span>}
                    {!rule.active && (
                      <Tag color="default" fill="outline" style={{ marginLeft: 6 }}>
                        {t('credit.coming')}
                      </Tag>
                    )}
                  </td>
                  <td
                    className="tw-num"
                    style={{ color: rule.points >= 0 ? 'var(--tw-up)' : 'var(--tw-down)' }}
                  >
                    {signed(rule.points)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="credit-history">
        <h2 id="credit-history" style={{ fontSize: 16, margin: '4px 4px 8px' }}>
          {t('credit.history')}
        </h2>
        {data && data.events.length === 0 ? (
          <div className="tw-card tw-muted" style={{ textAlign: 'center' }}>
            {t('credit.no_events')}
          </div>
        ) : (
          <List
            style={{
              borderRadius: 12,
              overflow: 'hidden',
              '--border-top': 'none',
              '--border-bottom': 'none',
            }}
          >
            {data?.events.map((event) => (
              <List.Item
                key={event.id}
                description={formatDateTime(event.createdAt, i18n.language)}
                extra={
                  <strong style={{ color: event.points >= 0 ? 'var(--tw-up)' : 'var(--tw-down)' }}>
                    {signed(event.points)}
                  </strong>
                }
              >
                {t(`credit.kind.${event.kind}`)}
              </List.Item>
            ))}
          </List>
        )}
      </section>
    </Page>
  );
}
