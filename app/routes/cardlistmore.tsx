import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CrewSlider } from "~/components/CrewSlider";
import { PodcastCardList } from "~/components/PodcastCard";
import { useLiveData } from "~/hooks/useRealtime";
import { listCrewImages } from "~/models/crew.server";
import { listLatestEpisodes } from "~/models/podcasts.server";
import { getStationIdentity } from "~/models/station.server";
import { withSiteMeta } from "~/utils/meta";

const PODCAST_PAGE_COUNT = 10;

export const meta: MetaFunction<typeof loader> = ({ data , matches }) =>
  withSiteMeta(matches, [{ title: data ? `PODCAST · ${data.stationName}` : "PODCAST" }]);

export async function loader() {
  const [episodes, crewImages] = await Promise.all([listLatestEpisodes(PODCAST_PAGE_COUNT), listCrewImages()]);
  return { episodes, crewImages, stationName: getStationIdentity().name };
}

export default function CardListMore() {
  const { episodes, crewImages, stationName } = useLoaderData<typeof loader>();
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
      <CrewSlider images={crewImages} stationName={stationName} />
    </div>
  );
}
