import { I18nProvider, type Catalog } from "./i18n/translate";
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { provideI18n } from "./i18n/meta";

/**
 * The page's messages are data, not code: root.tsx links its language's
 * catalog (preloaded while the scripts download) and the page hydrates once
 * it is here. Without it the server-rendered page still works, forms and links
 * included, as it does without JavaScript.
 */
async function loadMessages(): Promise<Catalog> {
  const language = document.documentElement.lang as Catalog["language"];
  const href = document.querySelector<HTMLLinkElement>("link[data-catalog]")?.href;
  if (!href) throw new Error("no message catalog linked");
  const response = await fetch(href);
  if (!response.ok) throw new Error(`message catalog: HTTP ${response.status}`);
  const catalog: Catalog = { language, messages: await response.json() };
  provideI18n(catalog);
  return catalog;
}

loadMessages().then(
  (catalog) =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <I18nProvider value={catalog}>
            <RemixBrowser />
          </I18nProvider>
        </StrictMode>,
      );
    }),
  (error: unknown) => console.error("The page stays as the server sent it:", error),
);
