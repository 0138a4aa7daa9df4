import type { Language } from '@tradewind/contract/languages';
import { Skeleton, Tabs } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useSearchParams } from '@/lib/router.tsx';
import { Page } from '@/ui/page.tsx';
import type { LegalTexts } from './texts/types.ts';

const TEXTS = import.meta.glob<{ texts: LegalTexts }>('./texts/*.ts');
const DOCUMENTS = ['privacy', 'terms'] as const;
type DocumentKey = (typeof DOCUMENTS)[number];

/** Privacy policy and terms of service, in the current language (spec §1). */
export function AgreePage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const active: DocumentKey = params.get('type') === 'terms' ? 'terms' : 'privacy';
  const [texts, setTexts] = useState<LegalTexts>();
  const language = i18n.language as Language;

  useEffect(() => {
    let cancelled = false;
    const load = TEXTS[`./texts/${language}.ts`] ?? TEXTS['./texts/en.ts'];
    void load?.().then((module) => !cancelled && setTexts(module.texts));
    return () => {
      cancelled = true;
    };
  }, [language]);

  const document = texts?.[active];
  return (
    <Page title={t('routes.Agree')}>
      <Tabs
        className="tw-tabs-wrap"
        activeKey={active}
        onChange={(key) => setParams({ type: key }, { replace: true })}
      >
        {DOCUMENTS.map((key) => (
          <Tabs.Tab key={key} title={t(`legal.${key}`)} />
        ))}
      </Tabs>
      <article className="tw-card tw-legal" style={{ marginTop: 12 }}>
        {document ? (
          <>
            <h2 style={{ marginTop: 0 }}>{document.title}</h2>
            <p className="tw-muted">{document.updated}</p>
            {document.sections.map((section) => (
              <section key={section.heading}>
                <h3 style={{ fontSize: 16, margin: '18px 0 6px' }}>{section.heading}</h3>
                {section.paragraphs.map((paragraph) => (
                  <p key={paragraph} style={{ margin: '0 0 10px' }}>
                    {paragraph}
                  </p>
                ))}
              </section>
            ))}
          </>
        ) : (
          <Skeleton.Paragraph lineCount={8} animated />
        )}
      </article>
    </Page>
  );
}
