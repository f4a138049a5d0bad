import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CREW_PAGE_SIZE, CrewSlider } from "~/components/CrewSlider";
import { JsonLd } from "~/utils/nonce";
import { OnAirNow } from "~/components/OnAirNow";
import { RecentSongs } from "~/components/RecentSongs";
import { PodcastCardList } from "~/components/PodcastCard";
import { useLiveData } from "~/hooks/useRealtime";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { crewSliderPage } from "~/models/crew.server";
import { listLatestEpisodes } from "~/models/episodes.server";
import { getOnAir, toPublicAiring } from "~/models/schedule.server";
import { listRecentSongs } from "~/models/song-history.server";
import { getSiteImage } from "~/models/site-images.server";
import { liveSharePageMeta } from "~/models/share-meta.server";
import { siteOrigin } from "~/models/site-origin.server";
import { getStationIdentity } from "~/models/station.server";
import { stationJsonLd } from "~/models/structured-data.server";
import { getConfig } from "~/services/config.server";
import { mediaSrcSet, mediaUrl } from "~/utils/media";
import { withSiteMeta } from "~/utils/meta";

const LATEST_PODCAST_COUNT = 5;
const RECENT_SONG_COUNT = 10;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const { t } = metaTranslator(matches);
  return withSiteMeta(matches, [
    { title: data ? t("listen.metaTitle", { station: data.stationName }) : t("listen.metaTitleBare") },
    ...(data ? data.shareMeta : []),
  ]);
};

export async function loader({ request }: LoaderFunctionArgs) {
  const [jumbotron, episodes, crew, onAir, recentSongs, origin] = await Promise.all([
    getSiteImage("jumbotron"),
    listLatestEpisodes(LATEST_PODCAST_COUNT),
    crewSliderPage(new URL(request.url).searchParams.get("crew"), CREW_PAGE_SIZE),
    getOnAir(new Date()),
    listRecentSongs(RECENT_SONG_COUNT),
    siteOrigin(request.url),
  ]);
  const station = getStationIdentity();
  return {
    jumbotron,
    episodes,
    crew,
    stationName: station.name,
    shareMeta: liveSharePageMeta(origin, station, { path: "/listen", title: station.name, description: station.tagline }),
    jsonLd: stationJsonLd(origin, station),
    stationTimeZone: getConfig().stationTimezone,
    onAir: { now: onAir.now && toPublicAiring(onAir.now), next: onAir.next && toPublicAiring(onAir.next) },
    recentSongs,
  };
}

export default function Listen() {
  const { jumbotron, episodes, crew, stationName, stationTimeZone, onAir, recentSongs, jsonLd } = useLoaderData<typeof loader>();
  const { t } = useT();
  useLiveData("images:changed");
  return (
    <div className="container">
      <JsonLd data={jsonLd} />
      <h1 className="visually-hidden">{t("listen.heading", { station: stationName })}</h1>
      {jumbotron && (
        <div className="hero">
          <img
            src={mediaUrl(jumbotron)}
            srcSet={mediaSrcSet(jumbotron)}
            sizes="(min-width: 1232px) 1200px, 100vw"
            alt={t("listen.heroAlt", { station: stationName })}
            width={jumbotron.width ?? 1920}
            height={jumbotron.height ?? 1080}
            {...{ fetchpriority: "high" }}
          />
        </div>
      )}
      <OnAirNow now={onAir.now} next={onAir.next} stationTimeZone={stationTimeZone} />
      <section className="section" aria-labelledby="latest-podcast">
        <div className="section-head">
          <h2 id="latest-podcast" className="section-title">
            {t("listen.latestPodcast")}
          </h2>
          <Link to="/cardlistmore" className="button button--ghost" prefetch="intent">
            {t("listen.viewMore")}
          </Link>
        </div>
        <PodcastCardList episodes={episodes} label={t("listen.latestEpisodes")} />
      </section>
      <RecentSongs songs={recentSongs} stationTimeZone={stationTimeZone} count={RECENT_SONG_COUNT} />
      <CrewSlider page={crew} stationName={stationName} />
    </div>
  );
}
