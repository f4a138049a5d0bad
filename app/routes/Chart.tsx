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
  return withSiteMeta(matches, [{ title: data ? t("chart.bareMetaTitle", { station: data.stationName }) : t("chart.bareTitle") }]);
};

export async function loader() {
  return { frames: await listChartFrames(), stationName: getStationIdentity().name };
}

// The original app's bare embeds page: the players only, under a hidden heading.
export default function Chart() {
  const { frames } = useLoaderData<typeof loader>();
  useLiveData("embeds:changed");
  const { t } = useT();
  return (
    <div className="container section">
      <h1 className="visually-hidden">{t("chart.bareTitle")}</h1>
      <EmbedList frames={frames} />
    </div>
  );
}
