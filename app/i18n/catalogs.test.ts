import { setupI18n } from "@lingui/core";
import { compileMessageOrThrow, type CompiledMessage } from "@lingui/message-utils/compileMessage";
import { describe, expect, it } from "vitest";
import { formatMessage, type CompiledMessage as OurCompiledMessage } from "./format-message";
import { messageFiles } from "~/locales/index.server";
import { catalogJson, serverI18n } from "./catalogs.server";
import { LANGUAGES, negotiateLanguage } from "./languages";
import { translator } from "./translate";

/** The {placeholders} a compiled message reads, at any depth (plural branches included). */
function argumentsOf(message: CompiledMessage, into = new Set<string>()): Set<string> {
  for (const token of message) {
    if (typeof token === "string") continue;
    const [name, , format] = token;
    into.add(name);
    if (format && typeof format === "object") {
      for (const [choice, branch] of Object.entries(format)) if (choice !== "offset" && Array.isArray(branch)) argumentsOf(branch as CompiledMessage, into);
    }
  }
  return into;
}

/** Each placeholder a compiled message reads, with the values worth trying for it. */
function samplesOf(message: CompiledMessage, into = new Map<string, (string | number)[]>()): Map<string, (string | number)[]> {
  for (const token of message) {
    if (typeof token === "string") continue;
    const [name, type, format] = token;
    if (type === "plural" || type === "selectordinal") into.set(name, [0, 1, 2, 3, 5, 11, 21, 1000, 1234567]);
    else if (type === "select") into.set(name, [...Object.keys(format as object), "something-else"]);
    else if (!into.has(name)) into.set(name, ["Malam Akustik", "<0>x</0> & 20:00"]);
    if (format && typeof format === "object") {
      for (const [choice, branch] of Object.entries(format)) if (choice !== "offset" && Array.isArray(branch)) samplesOf(branch as CompiledMessage, into);
    }
  }
  return into;
}

describe("format-message against Lingui's own renderer", () => {
  it.each(LANGUAGES)("renders every %s message exactly as @lingui/core's i18n._ does", (language) => {
    const { json } = catalogJson(language);
    const messages = JSON.parse(json) as Record<string, OurCompiledMessage>;
    const lingui = setupI18n({ locale: language, messages: { [language]: messages as never } });
    let compared = 0;
    for (const [key, message] of Object.entries(messages)) {
      const samples = [...samplesOf(message as CompiledMessage)];
      const rounds = Math.max(1, ...samples.map(([, values]) => values.length));
      for (let round = 0; round < rounds; round++) {
        const values = Object.fromEntries(samples.map(([name, choices]) => [name, choices[round % choices.length]]));
        expect(formatMessage(message, language, values), `${language} ${key} ${JSON.stringify(values)}`).toBe(lingui._(key, values));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(Object.keys(messages).length);
  });

  it("keeps Lingui's rules at the edges: =N before categories, offset, # only directly in a plural branch, missing values", () => {
    const compile = (text: string) => compileMessageOrThrow(text) as OurCompiledMessage;
    const lingui = (text: string, values: Record<string, unknown>) =>
      setupI18n({ locale: "en", messages: { en: { m: compileMessageOrThrow(text) } } })._("m", values as never);
    const cases: [string, Record<string, unknown>][] = [
      ["{n, plural, =0 {none} one {# song} other {# songs}}", { n: 0 }],
      ["{n, plural, =0 {none} one {# song} other {# songs}}", { n: 1 }],
      ["{n, plural, offset:1 =0 {nobody} one {you} other {you and # others}}", { n: 3 }],
      ["{n, plural, other {# {k, select, a {#a} other {b}}}}", { n: 4, k: "a" }],
      ["{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", { n: 23 }],
      ["Hello {name}!", {}],
      ["Hello {name}!", { name: null }],
      ["{k, select, a {A} other {O}}", {}],
    ];
    for (const [text, values] of cases) expect(formatMessage(compile(text), "en", values as never), text).toBe(lingui(text, values));
  });
});

describe("message files", () => {
  const english = messageFiles.en;

  it.each(LANGUAGES.filter((language) => language !== "en"))("%s has exactly the English namespaces and keys", (language) => {
    const files = messageFiles[language];
    expect(Object.keys(files).sort()).toEqual(Object.keys(english).sort());
    for (const [namespace, file] of Object.entries(english)) {
      const missing = Object.keys(file).filter((key) => !(key in files[namespace]));
      const extra = Object.keys(files[namespace]).filter((key) => !(key in file));
      expect({ namespace, missing, extra }).toEqual({ namespace, missing: [], extra: [] });
    }
  });

  it.each(LANGUAGES)("every %s message is valid ICU MessageFormat with the same placeholders as English", (language) => {
    for (const [namespace, file] of Object.entries(messageFiles[language])) {
      for (const [key, text] of Object.entries(file)) {
        const where = `${language}/${namespace}.json "${key}"`;
        expect(() => compileMessageOrThrow(text), where).not.toThrow();
        expect(text.trim(), `${where} is empty`).not.toBe("");
        const englishText = english[namespace]?.[key];
        if (englishText === undefined) continue;
        expect([...argumentsOf(compileMessageOrThrow(text))].sort(), where).toEqual([...argumentsOf(compileMessageOrThrow(englishText))].sort());
      }
    }
  });

  it("serves each language's catalog with a version that follows its text", () => {
    const [id, en] = [catalogJson("id"), catalogJson("en")];
    expect(id.version).not.toBe(en.version);
    expect(JSON.parse(en.json)["common.skipToContent"]).toBeDefined();
  });

  it("fills placeholders and plurals in each language", () => {
    const en = translator(serverI18n("en"));
    const id = translator(serverI18n("id"));
    expect(en.t("common.skipToContent")).toBe("Skip to content");
    expect(id.t("common.skipToContent")).toBe("Langsung ke konten");
    expect(en.locale).toBe("en-GB");
    expect(id.locale).toBe("id-ID");
  });
});

describe("negotiateLanguage", () => {
  it.each([
    ["id-ID,id;q=0.9,en-US;q=0.8", "id"],
    ["en-US,en;q=0.9", "en"],
    ["en;q=0.2, id;q=0.8", "id"],
    ["fr-FR, en;q=0.5", "en"],
    ["in-ID", "id"],
    ["EN-gb", "en"],
    ["fr, de", null],
    ["*", null],
    ["en;q=0, id;q=0", null],
    ["en;q=abc", null],
    ["", null],
    [";;;,,,", null],
    [null, null],
  ])("%j → %j", (header, expected) => {
    expect(negotiateLanguage(header)).toBe(expected);
  });
});
