import { getCurrentUser } from "~/auth.server";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmbedList } from "~/components/EmbedFrame";
import { EpisodePlayer } from "~/components/EpisodePlayer";
import { FavoriteButton } from "~/components/FavoriteButton";
import { useLiveData } from "~/hooks/useRealtime";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listChartFrames } from "~/models/chart.server";
import { getEpisodeProgress } from "~/models/episode-progress.server";
import { episodeMediaExtras, getPublishedEpisode } from "~/models/episodes.server";
import { getStationIdentity } from "~/models/station.server";
import { siteOrigin } from "~/models/site-origin.server";
import { episodeShareInfo, episodeShareMeta, parseStartTime } from "~/utils/episode-share";
import { mediaSrcSet, mediaUrl, mediaUrlFor } from "~/utils/media";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? [
        { title: `${data.episode.title} · ${data.stationName}` },
        { name: "description", content: data.episode.description },
        ...episodeShareMeta(data.share, metaTranslator(matches).t),
      ]
    : [{ title: metaTranslator(matches).t("podcast.episodeNotFound") }];

export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = /^\d{1,9}$/.test(params.podId ?? "") ? Number(params.podId) : NaN;
  const episode = Number.isSafeInteger(id) ? await getPublishedEpisode(id) : null;
  if (!episode) throw new Response((await requestTranslator(request)).t("podcast.episodeNotFound"), { status: 404 });
  const stationName = getStationIdentity().name;
  // A shared link's ?t= also works without JavaScript, as a media fragment on the audio.
  const startAt = parseStartTime(new URL(request.url).searchParams.get("t"));
  const user = await getCurrentUser(request);
  const [frames, progress, extras] = await Promise.all([
    listChartFrames(),
    user ? getEpisodeProgress(user.id, episode.id) : null,
    episodeMediaExtras(episode.id),
  ]);
  return { episode, frames, stationName, share: episodeShareInfo(await siteOrigin(request.url), stationName, episode), startAt, progress, extras };
}

export default function PlayEpisode() {
  const { episode, frames, stationName, startAt, progress, extras } = useLoaderData<typeof loader>();
  const { t } = useT();
  useLiveData("embeds:changed");
  const cover = mediaUrlFor(episode.cover, 640);
  return (
    <div className="container">
      <article className="episode-hero" aria-labelledby="episode-title">
        <img className="episode-hero__backdrop" src={mediaUrlFor(episode.cover, 320)} alt="" width={320} height={320} />
        <img
          className="episode-hero__cover"
          src={cover}
          srcSet={mediaSrcSet(episode.cover)}
          sizes="(min-width: 480px) 320px, 72vw"
          alt={t("podcast.coverOf", { title: episode.title })}
          width={320}
          height={320}
          {...{ fetchpriority: "high" }}
        />
        <div className="episode-hero__text">
          <h1 id="episode-title" className="page-title">
            {episode.title}
          </h1>
          <FavoriteButton episodeId={episode.id} title={episode.title} />
          <p>{episode.description}</p>
        </div>
        <EpisodePlayer
          key={episode.id}
          episode={{ id: episode.id, title: episode.title, audioUrl: mediaUrl(episode.audio), coverUrl: cover, durationSeconds: episode.durationSeconds }}
          stationName={stationName}
          startAt={startAt}
          progress={progress}
          extras={extras}
        />
      </article>
      <section className="section" aria-labelledby="chart-title">
        <div className="section-head">
          <h2 id="chart-title" className="section-title">
            {t("podcast.chartTitle")}
          </h2>
        </div>
        <EmbedList frames={frames} />
      </section>
    </div>
  );
}
