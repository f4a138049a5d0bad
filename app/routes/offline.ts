import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { getStationIdentity } from "~/models/station.server";
import { escapeUTF8 as escapeHtml } from "entities";

/*
 * GET /offline: what the service worker shows for a page this device has not kept while there is
 * no connection. Plain HTML with no script: the worker serves it under whatever address failed,
 * where Remix would refuse to hydrate a page rendered for another URL. Its links lead to the
 * downloads (kept by the worker) and back to the page (href="" asks for it again).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { t, language } = await requestTranslator(request);
  const station = getStationIdentity(language);
  const html = `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${escapeHtml(station.accentColor)}">
<title>${escapeHtml(t("common.offlineTitle"))} · ${escapeHtml(station.name)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
  :root { color-scheme: dark; --accent: ${escapeHtml(station.accentColor)}; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #0b0b12; color: #f4f4f8;
    font: 1.0625rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 32rem; padding: 2rem 1.25rem; text-align: center; }
  .badge { width: 96px; height: 96px; border-radius: 24px; }
  h1 { font-size: clamp(1.6rem, 1.3rem + 1.5vw, 2.4rem); margin: 1rem 0 0.5rem; }
  p { color: #a9a9bf; margin: 0 0 1.5rem; }
  nav { display: flex; flex-wrap: wrap; gap: 0.75rem; justify-content: center; }
  a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 1.25rem; border-radius: 999px; font-weight: 700;
    text-decoration: none; border: 2px solid var(--accent); color: #f4f4f8; }
  a.primary { background: var(--accent); color: #14060b; }
  a:focus-visible { outline: 3px solid #f4f4f8; outline-offset: 3px; }
</style>
</head>
<body>
<main>
<img class="badge" src="/icons/icon-192.png" alt="" width="96" height="96">
<h1>${escapeHtml(t("common.offlineTitle"))}</h1>
<p>${escapeHtml(t("common.offlineText"))}</p>
<nav aria-label="${escapeHtml(station.name)}">
<a class="primary" href="/downloads">${escapeHtml(t("common.navDownloads"))}</a>
<a href="">${escapeHtml(t("common.offlineRetry"))}</a>
</nav>
</main>
</body>
</html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache", Vary: "Cookie, Accept-Language" } });
}
