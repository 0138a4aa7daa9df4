import { formatAmount } from '@tradewind/contract/money';

type AmountProps = { asset?: string } & (
  { value: string } | { minor: bigint | string; scale: number }
);

/** An exact amount with its asset: a decimal string as the API sends it, or minor units at a scale. */
export function Amount(props: AmountProps) {
  const text =
    'value' in props
      ? props.value
      : formatAmount(
          typeof props.minor === 'bigint' ? props.minor : BigInt(props.minor),
          props.scale,
        );
  return (
    <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {text}
      {props.asset ? ` ${props.asset}` : ''}
    </span>
  );
}
