import { compileMessageOrThrow, type CompiledMessage } from "@lingui/message-utils/compileMessage";
import { describe, expect, it } from "vitest";
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
