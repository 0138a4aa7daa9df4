import type { Params } from '@tradewind/http-client/params';
import { http } from '@/api/http.ts';

/** The same filters as the list, as an .xlsx file; the client passes spreadsheet replies through as a Blob. */
export async function exportPostings(filter: Params, now: Date): Promise<void> {
  const blob = await http.get<Blob>('/api/v1/funds/postings/export', { params: filter });
  if (!(blob instanceof Blob)) throw new Error('the export did not answer a file');
  const stamp = `${now.getFullYear()}${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `tradewind-funds-${stamp}.xlsx`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
