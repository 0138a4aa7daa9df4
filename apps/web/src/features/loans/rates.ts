/** A daily rate as a fraction ("0.001") to percent text ("0.1") for display; the rate itself has at most 6 decimals (ppm). */
export function ratePercent(rate: string): string {
  return String(Math.round(Number(rate) * 1_000_000) / 10_000);
}
