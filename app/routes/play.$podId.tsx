import { getCurrentUser } from "~/auth.server";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmbedList } from "~/components/EmbedFrame";
import { DownloadButton } from "~/components/DownloadButton";
import { EpisodePlayer } from "~/components/EpisodePlayer";
import { FavoriteButton } from "~/components/FavoriteButton";
import { JsonLd } from "~/utils/nonce";
import { useLiveData } from "~/hooks/useRealtime";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listChartFrames } from "~/models/chart.server";
import { getEpisodeProgress } from "~/models/episode-progress.server";
import { episodeMediaExtras, getEpisodePage } from "~/models/episodes.server";
import { FEED_PATH } from "~/models/feed-identity.server";
import { getStationIdentity } from "~/models/station.server";
import { siteOrigin } from "~/models/site-origin.server";
import { episodeJsonLd } from "~/models/structured-data.server";
import { getConfig } from "~/services/config.server";
import { episodeShareInfo, episodeShareMeta, parseStartTime } from "~/utils/episode-share";
import { mediaSrcSet, mediaUrl, mediaUrlFor } from "~/utils/media";
import { subscribeLinks } from "~/utils/podcast-apps";

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
  const episode = Number.isSafeInteger(id) ? await getEpisodePage(id) : null;
  if (!episode) throw new Response((await requestTranslator(request)).t("podcast.episodeNotFound"), { status: 404 });
  const stationName = getStationIdentity().name;
  // A shared link's ?t= also works without JavaScript, as a media fragment on the audio.
  const startAt = parseStartTime(new URL(request.url).searchParams.get("t"));
  const user = await getCurrentUser(request);
  const [frames, progress, extras, origin] = await Promise.all([
    listChartFrames(),
    user ? getEpisodeProgress(user.id, episode.id) : null,
    episodeMediaExtras(episode.id),
    siteOrigin(request.url),
  ]);
  const share = episodeShareInfo(origin, stationName, episode);
  return {
    episode,
    frames,
    stationName,
    share,
    jsonLd: episodeJsonLd(share, episode, origin),
    startAt,
    progress,
    extras,
    subscribe: subscribeLinks(`${origin}${FEED_PATH}`),
    // Dates read in the station's zone, so the server's page and the browser's agree.
    stationTimeZone: getConfig().stationTimezone,
  };
}

/** "36 seconds", "12 minutes": an episode's length in words. */
function durationWords(seconds: number, t: ReturnType<typeof useT>["t"]): string {
  return seconds < 60 ? t("podcast.durationSeconds", { seconds }) : t("podcast.durationMinutes", { minutes: Math.round(seconds / 60) });
}

export default function PlayEpisode() {
  const { episode, frames, stationName, startAt, progress, extras, subscribe, stationTimeZone, jsonLd } = useLoaderData<typeof loader>();
  const { t, locale } = useT();
  useLiveData("embeds:changed");
  const cover = mediaUrlFor(episode.cover, 640);
  return (
    <div className="container">
      <JsonLd data={jsonLd} />
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
        </div>
        {/* The page's own play control right under the title: on a phone it is on screen on arrival, above the bar. */}
        <EpisodePlayer
          key={episode.id}
          episode={{ id: episode.id, title: episode.title, audioUrl: mediaUrl(episode.audio), coverUrl: cover, durationSeconds: episode.durationSeconds }}
          stationName={stationName}
          startAt={startAt}
          progress={progress}
          extras={extras}
        />
        <DownloadButton
          episode={{
            id: episode.id,
            title: episode.title,
            audioUrl: mediaUrl(episode.audio),
            coverUrl: cover,
            durationSeconds: episode.durationSeconds,
            ...extras,
          }}
        />
        <div className="episode-hero__text">
          <p>{episode.description}</p>
          <dl className="episode-facts">
            <div>
              <dt>{t("podcast.published")}</dt>
              <dd>
                <time dateTime={new Date(episode.publishedAt).toISOString()}>
                  {new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: stationTimeZone }).format(new Date(episode.publishedAt))}
                </time>
              </dd>
            </div>
            <div>
              <dt>{t("podcast.duration")}</dt>
              <dd>
                <time dateTime={`PT${episode.durationSeconds}S`}>{durationWords(episode.durationSeconds, t)}</time>
              </dd>
            </div>
            {episode.show && (
              <div>
                <dt>{t("podcast.show")}</dt>
                <dd>
                  <Link to={`/shows/${episode.show.slug}`}>{episode.show.name}</Link>
                </dd>
              </div>
            )}
            {episode.credits.length > 0 && (
              <div>
                <dt>{t("podcast.crew")}</dt>
                <dd>
                  <ul className="episode-facts__crew">
                    {episode.credits.map(({ role, crewMember }) => (
                      <li key={crewMember.id}>
                        <Link to={`/CrewSpin#crew-${crewMember.id}`}>{crewMember.name}</Link> <span>({t("podcast.creditRole", { role })})</span>
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            )}
          </dl>
        </div>
      </article>
      <section className="section" aria-labelledby="subscribe-title">
        <div className="section-head">
          <h2 id="subscribe-title" className="section-title">
            {t("podcast.subscribeTitle")}
          </h2>
        </div>
        <p className="muted">{t("podcast.subscribeHint")}</p>
        <ul className="subscribe-links">
          {subscribe.map((link) => (
            <li key={link.name}>
              <a className="button button--ghost" href={link.href} rel="noopener">
                {link.name === "RSS" ? t("podcast.rssFeed") : link.name}
              </a>
            </li>
          ))}
        </ul>
      </section>
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
