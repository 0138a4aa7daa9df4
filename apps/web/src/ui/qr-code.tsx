import { useMemo } from 'react';
import { qrModules } from '@/lib/qr.ts';

/** Four modules of white around the code, as the QR standard asks, so phone cameras find it. */
const QUIET_ZONE = 4;

/** A QR code as crisp SVG (deposit address, invitation link, two-factor enrolment). */
export function QrCode({
  value,
  label,
  sizePx = 184,
  testId,
}: {
  value: string;
  label: string;
  sizePx?: number;
  testId?: string;
}) {
  const qr = useMemo(() => qrModules(value), [value]);
  const side = qr.size + QUIET_ZONE * 2;
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid={testId}
      width={sizePx}
      height={sizePx}
      viewBox={`${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}`}
      shapeRendering="crispEdges"
      style={{ display: 'block', background: '#fff', borderRadius: 8 }}
    >
      <rect x={-QUIET_ZONE} y={-QUIET_ZONE} width={side} height={side} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}
