import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmbedList } from "~/components/EmbedFrame";
import { useLiveData } from "~/hooks/useRealtime";
import { listChartFrames } from "~/models/chart.server";
import { getStationIdentity } from "~/models/station.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => withSiteMeta(matches, [{ title: data ? `CHART · ${data.stationName}` : "CHART" }]);

export async function loader() {
  return { frames: await listChartFrames(), stationName: getStationIdentity().name };
}

export default function ChartContent() {
  const { frames, stationName } = useLoaderData<typeof loader>();
  useLiveData("embeds:changed");
  return (
    <div className="container">
      <header className="page-head">
        <h1 className="page-title">CHART</h1>
        <p className="muted">What {stationName} is spinning this week.</p>
      </header>
      <section className="section" aria-label="Chart">
        <EmbedList frames={frames} />
      </section>
    </div>
  );
}
