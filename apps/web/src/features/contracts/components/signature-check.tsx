import type { OrderTick } from '@tradewind/contract/instant';
import { Button } from 'antd-mobile';
import { CheckCircleFill, ExclamationCircleFill } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import {
  type SignatureCheck as Check,
  checkTickSignatures,
  provesQuote,
  signatureLines,
  tickSignatures,
} from '../tick-signature.ts';

type State =
  | { step: 'idle' }
  | { step: 'checking' }
  | { step: 'done'; checks: Check[] }
  | { step: 'load_failed' };

interface SignatureCheckProps {
  tick: OrderTick;
  scale: number;
}

/**
 * The close tick's signature, checked in the browser against the keys the source publishes
 * (ARCHITECTURE §1: a price the user can check without trusting us). The verifier and its
 * curve library load on the press of the button, not with the page.
 */
export function SignatureCheck({ tick, scale }: SignatureCheckProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ step: 'idle' });
  const offered = tickSignatures(tick);
  const sourceName = (source: string) => t(`market.sources.${source}`, { defaultValue: source });

  if (offered.kind === 'unknown') return null;
  if (offered.kind !== 'proofs') {
    return (
      <p className="tw-signature-none" data-testid="signature-none" data-kind={offered.kind}>
        {offered.kind === 'not_kept'
          ? t('contracts.signature_not_kept', {
              source: offered.sources.map(sourceName).join(', '),
            })
          : t('contracts.signature_unsigned', {
              count: offered.sources.length,
              sources: offered.sources.map(sourceName).join(', '),
            })}
      </p>
    );
  }

  async function check() {
    setState({ step: 'checking' });
    try {
      const verifier = await import('@tradewind/contract/pyth-proof');
      setState({ step: 'done', checks: checkTickSignatures(tick, scale, verifier) });
    } catch {
      // The chunk did not arrive (offline, or a new release replaced it): offer the button again.
      setState({ step: 'load_failed' });
    }
  }

  return (
    <div className="tw-signature" data-testid="signature">
      <p className="tw-signature-intro">
        {t('contracts.signature_intro', {
          source: offered.proofs.map((proof) => sourceName(proof.source)).join(', '),
        })}
      </p>
      {state.step === 'done' ? (
        <div role="status">
          {state.checks.map((item) => (
            <SignatureResult key={`${item.source}-${item.feedId}`} check={item} scale={scale} />
          ))}
        </div>
      ) : (
        <>
          <Button
            block
            color="primary"
            fill="outline"
            loading={state.step === 'checking'}
            onClick={() => void check()}
          >
            {t('contracts.signature_button')}
          </Button>
          {state.step === 'load_failed' && (
            <p className="tw-signature-load-failed" role="alert">
              {t('contracts.signature_load_failed')}
            </p>
          )}
        </>
      )}
    </div>
  );
}

function SignatureResult({ check, scale }: { check: Check; scale: number }) {
  const { t, i18n } = useTranslation();
  const proven = provesQuote(check);
  return (
    <div
      className="tw-signature-result"
      data-testid="signature-result"
      data-status={check.status}
      data-proven={proven}
    >
      {proven ? <CheckCircleFill aria-hidden /> : <ExclamationCircleFill aria-hidden />}
      <div>
        {signatureLines(check, scale, i18n.language, t).map((line, i) =>
          i === 0 ? <strong key={i}>{line}</strong> : <p key={i}>{line}</p>,
        )}
        <p className="tw-signature-feed">
          {t('contracts.signature_feed', { feed: `0x${check.feedId.replace(/^0x/i, '')}` })}
        </p>
      </div>
    </div>
  );
}
