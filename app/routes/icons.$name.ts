import type { LoaderFunctionArgs } from "@remix-run/node";
import { getStationIdentity } from "~/models/station.server";
import { APP_ICONS, stationIconPng, type AppIconName } from "~/services/artwork.server";

// /icons/icon-192.png, icon-512.png, maskable-512.png: the manifest's PNG icons, drawn from the station badge.
export async function loader({ params }: LoaderFunctionArgs) {
  return appIconResponse(params.name ?? "");
}

/** One of APP_ICONS as a PNG response, or a 404 for any other name. */
export async function appIconResponse(name: string): Promise<Response> {
  if (!Object.hasOwn(APP_ICONS, name)) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const png = await stationIconPng(getStationIdentity(), name as AppIconName);
  return new Response(new Uint8Array(png), { headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=3600" } });
}
