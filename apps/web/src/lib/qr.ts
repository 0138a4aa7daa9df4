import { correction, generate } from 'lean-qr/nano';

export interface QrModules {
  /** Modules per side (21 for version 1, +4 per version). */
  size: number;
  /** SVG path of the dark modules, one unit per module, horizontal runs merged. */
  path: string;
  isDark: (x: number, y: number) => boolean;
}

/**
 * The QR code of a text at error-correction level M (a smudged or glared screen still
 * scans). lean-qr's nano build is about 4 KB and loads only with the screens that show a code (deposit address, invitation, two-factor enrolment).
 */
export function qrModules(text: string): QrModules {
  const code = generate(text, { minCorrectionLevel: correction.M });
  const parts: string[] = [];
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) {
      if (!code.get(x, y)) continue;
      let run = 1;
      while (x + run < code.size && code.get(x + run, y)) run++;
      parts.push(`M${x} ${y}h${run}v1h-${run}z`);
      x += run - 1;
    }
  }
  return { size: code.size, path: parts.join(''), isDark: (x, y) => code.get(x, y) };
}
