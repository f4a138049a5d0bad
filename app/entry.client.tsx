import { i18n } from "@lingui/core";
import { I18nProvider } from "./i18n/translate";
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
async function loadMessages(): Promise<void> {
  const language = document.documentElement.lang;
  const href = document.querySelector<HTMLLinkElement>("link[data-catalog]")?.href;
  if (!href) throw new Error("no message catalog linked");
  const response = await fetch(href);
  if (!response.ok) throw new Error(`message catalog: HTTP ${response.status}`);
  i18n.loadAndActivate({ locale: language, messages: await response.json() });
  provideI18n(i18n);
}

loadMessages().then(
  () =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <I18nProvider value={i18n}>
            <RemixBrowser />
          </I18nProvider>
        </StrictMode>,
      );
    }),
  (error: unknown) => console.error("The page stays as the server sent it:", error),
);
