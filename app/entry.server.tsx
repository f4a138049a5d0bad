import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nProvider } from "./i18n/translate";
import { serverI18n } from "./i18n/catalogs.server";
import { resolveLanguage } from "./i18n/language.server";
import { isLanguage, type Language } from "./i18n/languages";
import { logError } from "./services/log.server";
import { NonceContext } from "./utils/nonce";

const ABORT_DELAY = 5_000;

// Remix's default prints errors as raw text; a message holding a visitor's input could forge log lines.
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // A page that does not exist (or a refused request) is an answer, not a failure: the request
  // line already says 404.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logError("Request failed", {
    method: request.method,
    path: new URL(request.url).pathname,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
};

/** The root loader's choice (it knows the account); when the root loader failed, the request's own. */
async function pageLanguage(request: Request, remixContext: EntryContext): Promise<Language> {
  const root = remixContext.staticHandlerContext.loaderData.root as { language?: unknown } | undefined;
  return isLanguage(root?.language) ? root.language : resolveLanguage(request);
}

/**
 * Every document is rendered whole, then sent in one piece. No page defers data (nothing to
 * stream early), and React writes its output in 2 KB pieces: sent as they come, each piece went
 * through two streams and its own socket write, which cost more CPU than the render itself for
 * the larger pages. Crawlers get the same whole document as before.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  const language = await pageLanguage(request, remixContext);
  responseHeaders.set("Content-Language", language);
  responseHeaders.append("Vary", "Accept-Language");
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let shellRendered = false;
    const body = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timer);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nProvider value={serverI18n(language)}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nProvider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logError("Rendering failed", { error: error instanceof Error ? error.message : String(error) });
        },
      },
    );
    // Cleared when the page is done: a pending timer would keep this render's memory for 5 s.
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}
