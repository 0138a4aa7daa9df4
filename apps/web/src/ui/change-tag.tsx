import { formatPercent } from '@/lib/format.ts';
import { signOf } from '@/lib/contract-math.ts';

/** A 24 h change as a coloured pill: green up, red down, grey unchanged or unknown. */
export function ChangeTag({
  pct,
  language,
  solid = true,
}: {
  pct: string | null;
  language: string;
  solid?: boolean;
}) {
  const sign = signOf(pct);
  const text = pct === null ? '—' : formatPercent(pct, language, 2, true);
  return (
    <span className="tw-change" data-sign={sign} data-solid={solid}>
      {text}
    </span>
  );
}
