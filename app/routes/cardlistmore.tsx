import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CREW_PAGE_SIZE, CrewSlider } from "~/components/CrewSlider";
import { PodcastCardList } from "~/components/PodcastCard";
import { useLiveData } from "~/hooks/useRealtime";
import { crewSliderPage } from "~/models/crew.server";
import { listLatestEpisodes } from "~/models/episodes.server";
import { getStationIdentity } from "~/models/station.server";
import { withSiteMeta } from "~/utils/meta";

const PODCAST_PAGE_COUNT = 10;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => withSiteMeta(matches, [{ title: data ? `PODCAST · ${data.stationName}` : "PODCAST" }]);

export async function loader({ request }: LoaderFunctionArgs) {
  const [episodes, crew] = await Promise.all([listLatestEpisodes(PODCAST_PAGE_COUNT), crewSliderPage(request, "crew", CREW_PAGE_SIZE)]);
  return { episodes, crew, stationName: getStationIdentity().name };
}

export default function CardListMore() {
  const { episodes, crew, stationName } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  return (
    <div className="container">
      <section className="section" aria-labelledby="all-podcast">
        <div className="section-head">
          <h1 id="all-podcast" className="section-title">
            PODCAST
          </h1>
        </div>
        <PodcastCardList episodes={episodes} label="Podcast episodes" />
      </section>
      <CrewSlider page={crew} stationName={stationName} />
    </div>
  );
}
