import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CREW_PAGE_SIZE, CrewSlider } from "~/components/CrewSlider";
import { PodcastCardList } from "~/components/PodcastCard";
import { useLiveData } from "~/hooks/useRealtime";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { crewSliderPage } from "~/models/crew.server";
import { listLatestEpisodes } from "~/models/episodes.server";
import { getStationIdentity } from "~/models/station.server";
import { withSiteMeta } from "~/utils/meta";

const PODCAST_PAGE_COUNT = 10;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const { t } = metaTranslator(matches);
  return withSiteMeta(matches, [{ title: data ? t("podcast.podcastPageTitle", { station: data.stationName }) : t("podcast.podcastTitle") }]);
};

export async function loader({ request }: LoaderFunctionArgs) {
  const [episodes, crew] = await Promise.all([
    listLatestEpisodes(PODCAST_PAGE_COUNT),
    crewSliderPage(new URL(request.url).searchParams.get("crew"), CREW_PAGE_SIZE),
  ]);
  return { episodes, crew, stationName: getStationIdentity().name };
}

export default function CardListMore() {
  const { episodes, crew, stationName } = useLoaderData<typeof loader>();
  const { t } = useT();
  useLiveData("images:changed");
  return (
    <div className="container">
      <section className="section" aria-labelledby="all-podcast">
        <div className="section-head">
          <h1 id="all-podcast" className="section-title">
            {t("podcast.podcastTitle")}
          </h1>
        </div>
        <PodcastCardList episodes={episodes} label={t("podcast.podcastEpisodes")} />
      </section>
      <CrewSlider page={crew} stationName={stationName} />
    </div>
  );
}
