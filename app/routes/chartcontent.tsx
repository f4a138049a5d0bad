import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmbedList } from "~/components/EmbedFrame";
import { useLiveData } from "~/hooks/useRealtime";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listChartFrames } from "~/models/chart.server";
import { getStationIdentity } from "~/models/station.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const { t } = metaTranslator(matches);
  return withSiteMeta(matches, [{ title: data ? t("chart.metaTitle", { station: data.stationName }) : t("chart.title") }]);
};

export async function loader() {
  return { frames: await listChartFrames(), stationName: getStationIdentity().name };
}

export default function ChartContent() {
  const { frames, stationName } = useLoaderData<typeof loader>();
  useLiveData("embeds:changed");
  const { t } = useT();
  return (
    <div className="container">
      <header className="page-head">
        <h1 className="page-title">{t("chart.title")}</h1>
        <p className="muted">{t("chart.intro", { station: stationName })}</p>
      </header>
      <section className="section" aria-label={t("chart.bareTitle")}>
        <EmbedList frames={frames} />
      </section>
    </div>
  );
}
