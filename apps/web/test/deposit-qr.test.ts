import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { qrModules } from '@/lib/qr.ts';

/** Rasterises the modules as the screen draws them: black on white, with the 4-module quiet zone. */
function render(text: string, scale = 4) {
  const qr = qrModules(text);
  const side = (qr.size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < qr.size; y++) {
    for (let x = 0; x < qr.size; x++) {
      if (!qr.isDark(x, y)) continue;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const offset = (((y + 4) * scale + dy) * side + (x + 4) * scale + dx) * 4;
          pixels[offset] = pixels[offset + 1] = pixels[offset + 2] = 0;
        }
      }
    }
  }
  return { qr, pixels, side };
}

describe('deposit address QR code', () => {
  it.each(['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK'])(
    '%s decodes back to the same address',
    (address) => {
      const { pixels, side } = render(address);
      const decoded = jsQR(pixels, side, side, { inversionAttempts: 'dontInvert' });
      expect(decoded?.data).toBe(address);
    },
  );

  it('is a version 3 code (29 × 29 modules) with its three finder patterns, and the SVG path covers exactly the dark modules', () => {
    const qr = qrModules('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    // 34 bytes at error correction M need version 3: 17 + 4 × 3 modules a side.
    expect(qr.size).toBe(29);
    const finderAt = (left: number, top: number) => {
      for (let i = 0; i < 7; i++) {
        // The outer ring is dark, the ring inside it light, the 3 × 3 centre dark.
        expect(qr.isDark(left + i, top)).toBe(true);
        expect(qr.isDark(left + i, top + 6)).toBe(true);
        expect(qr.isDark(left, top + i)).toBe(true);
        expect(qr.isDark(left + 6, top + i)).toBe(true);
      }
      expect(qr.isDark(left + 1, top + 1)).toBe(false);
      expect(qr.isDark(left + 3, top + 3)).toBe(true);
    };
    finderAt(0, 0);
    finderAt(qr.size - 7, 0);
    finderAt(0, qr.size - 7);

    let dark = 0;
    for (let y = 0; y < qr.size; y++) for (let x = 0; x < qr.size; x++) if (qr.isDark(x, y)) dark++;
    const covered = [...qr.path.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)].reduce(
      (sum, m) => sum + Number(m[3]),
      0,
    );
    expect(covered).toBe(dark);
    expect(qr.path).toMatch(/^(M\d+ \d+h\d+v1h-\d+z)+$/);
  });
});
