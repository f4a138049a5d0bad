import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PodcastCardList } from "~/components/PodcastCard";
import { listLatestEpisodes } from "~/models/podcasts.server";
import { getSiteImage } from "~/models/site-images.server";
import { getStationIdentity } from "~/models/station.server";
import { mediaSrcSet, mediaUrl } from "~/utils/media";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `LISTEN · ${data.stationName}` : "LISTEN" },
];

export async function loader() {
  const [jumbotron, episodes] = await Promise.all([getSiteImage("jumbotron"), listLatestEpisodes(5)]);
  return { jumbotron, episodes, stationName: getStationIdentity().name };
}

export default function Listen() {
  const { jumbotron, episodes, stationName } = useLoaderData<typeof loader>();
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
          <Link to="/cardlistmore" className="button button--ghost">
            VIEW MORE
          </Link>
        </div>
        {episodes.length > 0 ? (
          <PodcastCardList episodes={episodes} label="Latest podcast episodes" />
        ) : (
          <p className="empty-state">No episodes have been published yet.</p>
        )}
      </section>
    </div>
  );
}
