import { createHash } from "node:crypto";
import { setupI18n, type I18n, type Messages } from "@lingui/core";
import { compileMessageOrThrow } from "@lingui/message-utils/compileMessage";
import { messageFiles } from "~/locales/index.server";
import { LANGUAGES, type Language } from "./languages";
import { provideI18n } from "./meta";

/**
 * The message catalogs, compiled once from the ICU MessageFormat files in
 * app/locales: the server renders with them, and each page fetches its
 * language's catalog as JSON (/locales/<language>.json?v=<version>, cached
 * for good because the version changes with the text).
 */
interface Catalog {
  messages: Messages;
  json: string;
  version: string;
  i18n: I18n;
}

function compileCatalog(language: Language): Catalog {
  const messages: Messages = {};
  for (const [namespace, file] of Object.entries(messageFiles[language])) {
    for (const [key, text] of Object.entries(file)) {
      try {
        messages[`${namespace}.${key}`] = compileMessageOrThrow(text);
      } catch (error) {
        // A message file is code: a broken text fails the start, naming the message.
        throw new Error(`app/locales/${language}/${namespace}.json "${key}": ${(error as Error).message}`);
      }
    }
  }
  const json = JSON.stringify(messages);
  const i18n = setupI18n({ locale: language, messages: { [language]: messages } });
  provideI18n(i18n);
  return { messages, json, version: createHash("sha256").update(json).digest("base64url").slice(0, 12), i18n };
}

let catalogs: Record<Language, Catalog> | null = null;

function catalog(language: Language): Catalog {
  catalogs ??= Object.fromEntries(LANGUAGES.map((each) => [each, compileCatalog(each)])) as Record<Language, Catalog>;
  return catalogs[language];
}

/** The i18n instance that renders pages (and server texts) in one language; shared, never switched. */
export function serverI18n(language: Language): I18n {
  return catalog(language).i18n;
}

/** A language's compiled messages as the JSON the browser loads, and its version. */
export function catalogJson(language: Language): { json: string; version: string } {
  const { json, version } = catalog(language);
  return { json, version };
}

export function catalogUrl(language: Language): string {
  return `/locales/${language}.json?v=${catalog(language).version}`;
}
