import { stripVTControlCharacters } from 'node:util';
import type { Colors } from './colors.js';
import { renderInline } from './markdown-inline.js';

type Align = 'left' | 'center' | 'right';

const DELIMITER_CELL = /^:?-+:?$/;

/**
 * The rows of a table (`| a | b |` lines, the second one `|---|---|`) with its columns lined up,
 * the header bold and `│` between the cells. Rows that are not such a table, or one too wide for
 * the terminal, keep their cells unpadded: every cell is still shown.
 */
export function renderTable(
  rows: string[],
  options: { colors: Colors; width?: number | undefined; margin: string },
): string {
  const { colors, margin } = options;
  const inline = (text: string) => renderInline(text, { colors, complete: true }).output;
  const [header = [], delimiter = [], ...body] = rows.map(cellsOf);
  if (!(delimiter.length > 0 && delimiter.every((cell) => DELIMITER_CELL.test(cell)))) {
    return rows.map((row) => `${margin}${inline(row.trim())}\n`).join('');
  }
  const aligns = delimiter.map(alignOf);
  const table = [header.map((cell) => colors.bold(inline(cell))), ...body.map((row) => row.map(inline))];
  const count = Math.max(...table.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, column) =>
    Math.max(...table.map((row) => visibleWidth(row[column] ?? ''))),
  );
  const separator = colors.dim(' │ ');
  const fits =
    options.width === undefined ||
    margin.length + widths.reduce((sum, width) => sum + width, 0) + 3 * (count - 1) <= options.width;
  const line = (row: string[]) =>
    `${margin}${Array.from({ length: count }, (_, column) => {
      const cell = row[column] ?? '';
      return fits ? pad(cell, widths[column] ?? 0, aligns[column] ?? 'left') : cell;
    })
      .join(separator)
      .trimEnd()}\n`;
  const rule = `${margin}${colors.dim(widths.map((width) => '─'.repeat(width)).join('─┼─'))}\n`;
  const [head = [], ...rest] = table;
  return line(head) + (fits ? rule : '') + rest.map(line).join('');
}

// `| a | b \| c |` → ["a", "b \| c"]: the outer pipes are optional, an escaped one is text.
function cellsOf(row: string): string[] {
  const cells = row.trim().split(/(?<!\\)\|/);
  if (cells[0]?.trim() === '') cells.shift();
  if (cells.length > 0 && cells.at(-1)?.trim() === '') cells.pop();
  return cells.map((cell) => cell.trim());
}

function alignOf(delimiter: string): Align {
  if (delimiter.startsWith(':') && delimiter.endsWith(':')) return 'center';
  return delimiter.endsWith(':') ? 'right' : 'left';
}

function pad(cell: string, width: number, align: Align): string {
  const room = width - visibleWidth(cell);
  if (align === 'right') return ' '.repeat(room) + cell;
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + cell + ' '.repeat(Math.ceil(room / 2));
  return cell + ' '.repeat(room);
}

// Colour codes take no room on the screen.
function visibleWidth(text: string): number {
  return [...stripVTControlCharacters(text)].length;
}
