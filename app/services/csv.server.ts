import { stringify } from "csv-stringify/sync";

/*
 * CSV for spreadsheets (the song history for licensing reports). The file is opened with
 * whatever separator the reader's locale picks: `,`, or `;` (Indonesia, much of Europe), or tab.
 * Quotes protect a field only when the separator matches, and LibreOffice evaluates a quoted
 * `"=1+1"` all the same, so quoting is not enough: nothing in a field may begin a formula at any
 * place a spreadsheet could start a cell.
 */

// Where a spreadsheet may start a cell inside our field: after any separator a locale uses, or a
// line break (a reader splitting on another separator ignores the quotes around them).
const CELL_BREAKS = new Set([",", ";", "\t", "\r", "\n"]);
// Between a cell's start and its first character: spaces (dropped by "trim spaces") and quotes
// (dropped as text delimiters).
const SKIPPED = new Set([" ", '"', "\u00a0", "\u2007", "\u202f", "\u3000", "\ufeff"]);
// What makes a cell a formula (OWASP's list; the full-width forms for spreadsheets that fold them).
const FORMULA_STARTS = new Set(["=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20"]);

/**
 * The value with a `'` before every character that would begin a formula at the start of a cell,
 * wherever a cell could start (see CELL_BREAKS); a value beginning with a tab or CR is prefixed as
 * a whole (OWASP). One pass over the text, whatever it holds.
 */
export function spreadsheetSafe(value: string): string {
  let safe = /^[\t\r]/.test(value) ? "'" : "";
  let copied = 0;
  let atCellStart = true;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (CELL_BREAKS.has(char)) atCellStart = true;
    else if (atCellStart && !SKIPPED.has(char)) {
      atCellStart = false;
      if (FORMULA_STARTS.has(char)) {
        safe += `${value.slice(copied, i)}'`;
        copied = i;
      }
    }
  }
  return safe + value.slice(copied);
}

/** Rows as CSV: every field quoted (empty ones too), text made safe with `spreadsheetSafe`. */
export function spreadsheetCsv(rows: (string | null)[][]): string {
  return stringify(rows, { quoted: true, quoted_empty: true, cast: { string: spreadsheetSafe } });
}
