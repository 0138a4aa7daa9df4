import { QrCode } from '@/ui/qr-code.tsx';

export function AddressQr({
  value,
  label,
  sizePx = 184,
}: {
  value: string;
  label: string;
  sizePx?: number;
}) {
  return <QrCode value={value} label={label} sizePx={sizePx} testId="deposit-qr" />;
}
