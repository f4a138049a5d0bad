import { spreadsheetCsv, spreadsheetSafe } from "./csv.server";

describe("spreadsheetSafe", () => {
  it("leaves ordinary titles alone", () => {
    for (const title of ["Daft Punk - One More Time", "AC/DC - T.N.T.", "Sigur Rós - Hoppípolla", "1+1", "a=b", "Me & You, Part 2"]) {
      expect(spreadsheetSafe(title)).toBe(title);
    }
  });

  it("puts a quote before a formula wherever a separator could start a cell", () => {
    expect(spreadsheetSafe("=1+1")).toBe("'=1+1");
    expect(spreadsheetSafe("Song;=1+1;")).toBe("Song;'=1+1;");
    expect(spreadsheetSafe("a,+1\t-1\n@x\r=y")).toBe("a,'+1\t'-1\n'@x\r'=y");
    expect(spreadsheetSafe('x; "=1+1"')).toBe(`x; "'=1+1"`);
    expect(spreadsheetSafe("\uff1d1+1")).toBe("'\uff1d1+1");
  });

  it("prefixes a value that begins with a tab or CR as a whole (OWASP)", () => {
    expect(spreadsheetSafe("\tx")).toBe("'\tx");
    expect(spreadsheetSafe("\r=1")).toBe("'\r'=1");
  });
});

describe("spreadsheetCsv", () => {
  it("quotes every field, empty ones too", () => {
    expect(spreadsheetCsv([["a", "", null, 'say "hi"']])).toBe('"a","","","say ""hi"""\n');
  });
});
