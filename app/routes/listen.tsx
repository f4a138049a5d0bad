import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CREW_PAGE_SIZE, CrewSlider } from "~/components/CrewSlider";
import { PodcastCardList } from "~/components/PodcastCard";
import { useLiveData } from "~/hooks/useRealtime";
import { crewSliderPage } from "~/models/crew.server";
import { listLatestEpisodes } from "~/models/podcasts.server";
import { getSiteImage } from "~/models/site-images.server";
import { getStationIdentity } from "~/models/station.server";
import { mediaSrcSet, mediaUrl } from "~/utils/media";
import { withSiteMeta } from "~/utils/meta";

const LATEST_PODCAST_COUNT = 5;

export const meta: MetaFunction<typeof loader> = ({ data , matches }) =>
  withSiteMeta(matches, [{ title: data ? `LISTEN · ${data.stationName}` : "LISTEN" }]);

export async function loader({ request }: LoaderFunctionArgs) {
  const [jumbotron, episodes, crew] = await Promise.all([
    getSiteImage("jumbotron"),
    listLatestEpisodes(LATEST_PODCAST_COUNT),
    crewSliderPage(request, "crew", CREW_PAGE_SIZE),
  ]);
  return { jumbotron, episodes, crew, stationName: getStationIdentity().name };
}

export default function Listen() {
  const { jumbotron, episodes, crew, stationName } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  return (
    <div className="container">
      <h1 className="visually-hidden">Listen to {stationName}</h1>
      {jumbotron && (
        <div className="hero">
          <img
            src={mediaUrl(jumbotron)}
            srcSet={mediaSrcSet(jumbotron)}
            sizes="(min-width: 1232px) 1200px, 100vw"
            alt={`${stationName} on air`}
            width={jumbotron.width ?? 1920}
            height={jumbotron.height ?? 1080}
            {...{ fetchpriority: "high" }}
          />
        </div>
      )}
      <section className="section" aria-labelledby="latest-podcast">
        <div className="section-head">
          <h2 id="latest-podcast" className="section-title">
            LATEST PODCAST
          </h2>
          <Link to="/cardlistmore" className="button button--ghost" prefetch="intent">
            VIEW MORE
          </Link>
        </div>
        <PodcastCardList episodes={episodes} label="Latest podcast episodes" />
      </section>
      <CrewSlider page={crew} stationName={stationName} />
    </div>
  );
}
