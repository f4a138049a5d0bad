import { createHash } from "node:crypto";
import { compileMessageOrThrow } from "@lingui/message-utils/compileMessage";
import { getConfig } from "~/services/config.server";
import { messageFiles } from "~/locales/index.server";
import { LANGUAGES, type Language } from "./languages";
import { CHOICE_TYPES, type CompiledMessage } from "./format-message";
import { provideI18n } from "./meta";
import { translator, type Catalog, type Translator } from "./translate";

/**
 * The message catalogs, compiled once from the ICU MessageFormat files in
 * app/locales: the server renders with them, and each page fetches its
 * language's catalog as JSON (/locales/<language>.json?v=<version>, cached
 * for good because the version changes with the text).
 */
interface CompiledCatalog {
  catalog: Catalog;
  json: string;
  version: string;
}

/** Refuses a placeholder kind format-message.ts does not render ({d, date}, {n, number}): say it in words, or teach it there. */
function checkPlaceholders(message: CompiledMessage): void {
  if (!Array.isArray(message)) return;
  for (const token of message) {
    if (typeof token === "string" || token.length === 1) continue;
    const [name, type, cases] = token;
    if (!(CHOICE_TYPES as readonly string[]).includes(type)) throw new Error(`{${name}, ${type}} is not supported: use {${name}} or plural/select`);
    for (const [choice, branch] of Object.entries(cases)) if (choice !== "offset") checkPlaceholders(branch as CompiledMessage);
  }
}

function compileCatalog(language: Language): CompiledCatalog {
  const messages: Record<string, CompiledMessage> = {};
  for (const [namespace, file] of Object.entries(messageFiles[language])) {
    for (const [key, text] of Object.entries(file)) {
      try {
        const message = compileMessageOrThrow(text) as CompiledMessage;
        checkPlaceholders(message);
        messages[`${namespace}.${key}`] = message;
      } catch (error) {
        // A message file is code: a broken text fails the start, naming the message.
        throw new Error(`app/locales/${language}/${namespace}.json "${key}": ${(error as Error).message}`);
      }
    }
  }
  const json = JSON.stringify(messages);
  const catalog: Catalog = { language, messages };
  provideI18n(catalog);
  return { catalog, json, version: createHash("sha256").update(json).digest("base64url").slice(0, 12) };
}

let catalogs: Record<Language, CompiledCatalog> | null = null;

function catalog(language: Language): CompiledCatalog {
  catalogs ??= Object.fromEntries(LANGUAGES.map((each) => [each, compileCatalog(each)])) as Record<Language, CompiledCatalog>;
  return catalogs[language];
}

/** The catalog that renders pages (and server texts) in one language; shared, never switched. */
export function serverI18n(language: Language): Catalog {
  return catalog(language).catalog;
}

/**
 * The station's own words (STATION_LANGUAGE): for what is written once for everyone, whoever
 * triggers it: feeds, calendars, archived episodes, stored embed titles.
 */
export function stationTranslator(): Translator {
  return translator(serverI18n(getConfig().stationLanguage));
}

/** A language's compiled messages as the JSON the browser loads, and its version. */
export function catalogJson(language: Language): { json: string; version: string } {
  const { json, version } = catalog(language);
  return { json, version };
}

export function catalogUrl(language: Language): string {
  return `/locales/${language}.json?v=${catalog(language).version}`;
}
