import { PassThrough, type Readable, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * Streams an .xlsx file of one sheet, a bold header row frozen at the top, through
 * exceljs's streaming writer: each row is written and let go as it comes, so a large
 * export never sits in memory as a whole.
 */

/** A text cell, or an exact decimal written as a number. */
export type Cell = string | { decimal: string } | null;

export interface SheetSpec {
  name: string;
  columns: { header: string; width: number }[];
  /** Stamps the file's properties (created, modified). */
  createdAt: Date;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Sheet names: at most 31 characters, none of : \ / ? * [ ]. */
function sheetName(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet1';
}

function cellValue(cell: Cell): string | number | null {
  if (cell === null) return null;
  if (typeof cell === 'string') {
    // exceljs drops the control characters XML 1.0 cannot hold, but not these two.
    return cell.replace(/[\ufffe\uffff]/g, '');
  }
  if (!DECIMAL.test(cell.decimal)) throw new Error(`not a decimal: ${cell.decimal}`);
  // A spreadsheet number is a binary double whatever text the file holds: the nearest
  // double is what Excel would read from the exact decimal, so nothing more is lost here.
  return Number(cell.decimal);
}

/**
 * A writable stream, Node's or the readable-stream package's (archiver's): both keep their
 * buffer's state in `_writableState`, and emit 'drain' once a write past it is taken in.
 */
interface Sink {
  _writableState?: { needDrain?: boolean };
  destroyed?: boolean;
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/** Resolves once `sink` has taken in what it was given (or closed), or `output` has: the client went away. */
function caughtUp(sink: Sink, output: Writable): Promise<void> {
  if (!sink._writableState?.needDrain || sink.destroyed || output.destroyed)
    return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      sink.off('drain', done);
      sink.off('close', done);
      output.off('close', done);
      resolve();
    };
    sink.on('drain', done);
    sink.on('close', done);
    output.on('close', done);
  });
}

/**
 * Where exceljs's sheet stream writes the sheet on its way to the compressor. The sheet
 * stream writes there whatever the answer, so waiting on the file's reader alone would let
 * the whole sheet pile up in that queue while compression and the download catch up; the
 * writer waits on the queue itself, which drains only as fast as the file is read. exceljs
 * does not type it: without it the writer waits on the output, and the export test's
 * memory bound says whether that still holds.
 */
function sheetSink(worksheet: ExcelJS.Worksheet): Sink | undefined {
  return (worksheet as unknown as { stream?: { pipes?: Sink[] } }).stream?.pipes?.[0];
}

/**
 * The file, written while `pages` yields its rows. Between pages the writer waits until
 * what it wrote has been compressed, which goes only as fast as the file is read: a slow
 * download holds back the next page instead of piling the file up in memory. A failure
 * while writing destroys the stream with it.
 */
export function streamXlsx(sheet: SheetSpec, pages: AsyncIterable<Cell[][]>): Readable {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Tradewind';
  workbook.lastModifiedBy = 'Tradewind';
  workbook.created = sheet.createdAt;
  workbook.modified = sheet.createdAt;
  const worksheet = workbook.addWorksheet(sheetName(sheet.name), {
    views: [{ state: 'frozen', ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
  });
  worksheet.columns = sheet.columns.map((column) => ({
    header: column.header,
    width: column.width,
  }));
  worksheet.getRow(1).font = { bold: true };
  worksheet.getRow(1).commit();

  const write = async () => {
    for await (const page of pages) {
      for (const cells of page) worksheet.addRow(cells.map(cellValue)).commit();
      await caughtUp(sheetSink(worksheet) ?? (output as Sink), output);
      if (output.destroyed) return;
    }
    worksheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) =>
    output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}
