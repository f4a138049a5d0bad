import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/** Separators a spreadsheet user's locale may pick when opening a CSV (LibreOffice's codes: the character's code point). */
export const SEPARATORS = { comma: 44, semicolon: 59, tab: 9 } as const;

export interface OpenedSheet {
  /** The formula of every cell LibreOffice made a formula (none is the goal). */
  formulas: string[];
  /** The text of every cell, as LibreOffice shows it. */
  texts: string[];
}

const decode = (xml: string) =>
  xml
    .replace(/<[^>]*>/g, "")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/**
 * Opens CSV text with LibreOffice Calc (Debian's libreoffice-calc-nogui) the way a user does,
 * with `separator` and `"` as the text delimiter, UTF-8, and reads the cells back from the flat
 * OpenDocument file it saves.
 */
export async function openCsvInLibreOffice(csv: string, separator: number): Promise<OpenedSheet> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-calc-"));
  try {
    await fs.writeFile(path.join(dir, "export.csv"), csv);
    // A profile of its own: two soffice processes sharing one wait on each other's lock.
    await promisify(execFile)(
      "soffice",
      [
        `-env:UserInstallation=file://${dir}/profile`,
        "--headless",
        `--infilter=CSV:${separator},34,76,1`,
        "--convert-to",
        "fods",
        "--outdir",
        dir,
        path.join(dir, "export.csv"),
      ],
      { timeout: 120_000 },
    );
    const xml = await fs.readFile(path.join(dir, "export.fods"), "utf8");
    const cells = [...xml.matchAll(/<table:table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g)];
    return {
      formulas: cells.flatMap(([, attributes]) => [...(/table:formula="([^"]*)"/.exec(attributes)?.slice(1) ?? [])].map(decode)),
      texts: cells.map(([, , content]) => decode((content ?? "").replace(/<\/text:p>\s*<text:p>/g, "\n"))),
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
