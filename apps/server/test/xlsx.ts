import ExcelJS from 'exceljs';
import { expect } from 'vitest';

export interface XlsxSheet {
  /** Every sheet's name, in order. */
  names: string[];
  /** The first sheet's rows from row 1, each cell's value (text or number; an empty cell is ''). */
  rows: (string | number)[][];
  worksheet: ExcelJS.Worksheet;
}

/** Opens an .xlsx file as a spreadsheet program would, with exceljs's reader. Rows must run 1, 2, 3, … with no gap. */
export async function readXlsx(file: Buffer): Promise<XlsxSheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const worksheet = workbook.worksheets[0];
  if (!worksheet) throw new Error('the file holds no sheet');
  const rows: (string | number)[][] = [];
  // columnCount walks every row: read it once.
  const columns = worksheet.columnCount;
  worksheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    expect(rowNumber).toBe(rows.length + 1);
    const cells: (string | number)[] = [];
    for (let column = 1; column <= columns; column++) {
      const value = row.getCell(column).value;
      if (
        value !== null &&
        value !== undefined &&
        typeof value !== 'string' &&
        typeof value !== 'number'
      )
        throw new Error(`row ${rowNumber}: unexpected cell ${JSON.stringify(value)}`);
      cells.push(value ?? '');
    }
    rows.push(cells);
  });
  return { names: workbook.worksheets.map((sheet) => sheet.name), rows, worksheet };
}
