import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmbedList } from "~/components/EmbedFrame";
import { useLiveData } from "~/hooks/useRealtime";
import { listChartFrames } from "~/models/chart.server";
import { getStationIdentity } from "~/models/station.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => withSiteMeta(matches, [{ title: data ? `Chart · ${data.stationName}` : "Chart" }]);

export async function loader() {
  return { frames: await listChartFrames(), stationName: getStationIdentity().name };
}

// The spec's bare embeds page: the players only, under a hidden heading.
export default function Chart() {
  const { frames } = useLoaderData<typeof loader>();
  useLiveData("embeds:changed");
  return (
    <div className="container section">
      <h1 className="visually-hidden">Chart</h1>
      <EmbedList frames={frames} />
    </div>
  );
}
