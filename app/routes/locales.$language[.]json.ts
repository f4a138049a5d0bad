import type { LoaderFunctionArgs } from "@remix-run/node";
import { catalogJson } from "~/i18n/catalogs.server";
import { isLanguage } from "~/i18n/languages";

/**
 * A language's compiled messages, which every page loads before it hydrates
 * (entry.client.tsx). Asked for by its current version, it is kept for good;
 * an old version (a page from before a deploy) gets today's, revalidated.
 */
export function loader({ params, request }: LoaderFunctionArgs) {
  if (!isLanguage(params.language)) throw new Response("Not found", { status: 404 });
  const { json, version } = catalogJson(params.language);
  const current = new URL(request.url).searchParams.get("v") === version;
  return new Response(json, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "no-cache",
      ETag: `"${version}"`,
    },
  });
}
