import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { JsonLd } from "~/utils/nonce";
import { FollowShow } from "~/components/FollowShow";
import { PodcastCardList } from "~/components/PodcastCard";
import { useLiveData } from "~/hooks/useRealtime";
import { requestTranslator, resolveLanguage } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listShowEpisodes } from "~/models/episodes.server";
import { listShowAirings, toPublicAiring } from "~/models/schedule.server";
import { getShowBySlug } from "~/models/shows.server";
import { followingState, setFollowing, vapidPublicKey } from "~/models/show-reminders.server";
import { readForm } from "~/services/form-body.server";
import { getListenerSession, listenerSessionStorage } from "~/services/session.server";
import { getStationIdentity } from "~/models/station.server";
import { getConfig } from "~/services/config.server";
import { liveSharePageMeta } from "~/models/share-meta.server";
import { siteOrigin } from "~/models/site-origin.server";
import { showJsonLd } from "~/models/structured-data.server";
import { timeIn, useListenerTimeZone, zoneAbbreviation } from "~/utils/airing-format";
import { mediaSrcSet, mediaUrlFor } from "~/utils/media";
import { withSiteMeta } from "~/utils/meta";
import { dayLabel, describeSlot } from "~/utils/weekdays";

const NEXT_AIRINGS = 8;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  withSiteMeta(matches, [
    { title: data ? `${data.show.name} · ${data.stationName}` : metaTranslator(matches).t("schedule.showTitle") },
    ...(data ? [{ name: "description", content: data.show.description.slice(0, 160) }, ...data.shareMeta] : []),
  ]);

export async function loader({ request, params }: LoaderFunctionArgs) {
  return showPageData(request, params.slug ?? "");
}

async function showPageData(request: Request, slug: string) {
  const show = await getShowBySlug(slug);
  if (!show) throw new Response((await requestTranslator(request)).t("schedule.showNotFound"), { status: 404 });
  const session = await getListenerSession(request);
  const [airings, episodes, following, pushKey, origin] = await Promise.all([
    listShowAirings(show.id, new Date(), NEXT_AIRINGS),
    listShowEpisodes(show.id),
    followingState(session.get("followerId"), show.id),
    vapidPublicKey(),
    siteOrigin(request.url),
  ]);
  const station = getStationIdentity();
  const artwork = show.artwork ? mediaUrlFor(show.artwork, 640) : null;
  const publicAirings = airings.map(toPublicAiring);
  return {
    show: {
      slug: show.slug,
      name: show.name,
      description: show.description,
      colour: show.colour,
      artwork: show.artwork,
      hosts: show.hosts.map((host) => host.crewMember),
    },
    episodes,
    rules: show.slots.map(({ id, startDate, startTime, durationMinutes, rrule, endDate }) => ({ id, startDate, startTime, durationMinutes, rrule, endDate })),
    airings: publicAirings,
    stationName: station.name,
    stationTimeZone: getConfig().stationTimezone,
    calendarUrl: `${origin}/shows/${show.slug}.ics`,
    shareMeta: liveSharePageMeta(origin, station, {
      path: `/shows/${encodeURIComponent(show.slug)}`,
      title: `${show.name} · ${station.name}`,
      description: show.description.slice(0, 200),
      imageUrl: artwork,
    }),
    jsonLd: showJsonLd(origin, station, { ...show, artwork }, publicAirings),
    following: {
      following: following.following,
      pushSubscriptions: following.pushSubscriptions,
      remindersUrl: following.calendarToken ? `${origin}/reminders/${following.calendarToken}/calendar.ics` : null,
      pushKey,
    },
  };
}

// Follow or unfollow (a plain form: it works without JavaScript); the follower lives in the listener session.
export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "follow" && intent !== "unfollow") throw new Response((await requestTranslator(request)).t("schedule.followChoiceInvalid"), { status: 400 });
  const session = await getListenerSession(request);
  const followerId = await setFollowing({
    followerId: session.get("followerId"),
    userId: session.get("userId"),
    slug: params.slug ?? "",
    follow: intent === "follow",
    language: await resolveLanguage(request),
    timeZone: String(form.get("timeZone") ?? ""),
  });
  if (followerId === null && intent === "follow") throw new Response((await requestTranslator(request)).t("schedule.showNotFound"), { status: 404 });
  const headers = new Headers();
  if (followerId && followerId !== session.get("followerId")) {
    session.set("followerId", followerId);
    headers.set("Set-Cookie", await listenerSessionStorage(request).commitSession(session));
  }
  return redirect(`/shows/${encodeURIComponent(params.slug ?? "")}`, { headers });
}

export default function ShowPage() {
  const { show, rules, airings, episodes, stationTimeZone, calendarUrl, jsonLd, following } = useLoaderData<typeof loader>();
  const [zone] = useListenerTimeZone(stationTimeZone, null);
  const translator = useT();
  const { t, locale } = translator;
  useLiveData("schedule:changed");
  useLiveData("images:changed");
  return (
    <div className="container show-page">
      <JsonLd data={jsonLd} />
      <header className={`show-page__head${show.artwork ? " show-page__head--art" : ""}`} style={{ borderColor: show.colour }}>
        {show.artwork && (
          <img
            className="show-page__art"
            src={mediaUrlFor(show.artwork, 640)}
            srcSet={mediaSrcSet(show.artwork)}
            sizes="(min-width: 720px) 200px, 40vw"
            alt={t("schedule.artworkFor", { show: show.name })}
            width={200}
            height={200}
          />
        )}
        <p className="caption">
          <Link to="/schedule">{t("schedule.title")}</Link>
        </p>
        <h1 className="page-title">{show.name}</h1>
        {show.description && <p className="show-page__description">{show.description}</p>}
        {show.hosts.length > 0 && (
          <p className="show-page__hosts">
            {t("schedule.hostedBy")}{" "}
            {show.hosts.map((host, index) => (
              <span key={host.id}>
                {index > 0 && ", "}
                <Link to={`/CrewSpin#crew-${host.id}`}>{host.name}</Link>
              </span>
            ))}
          </p>
        )}
        <p>
          <a href={calendarUrl} className="button button--ghost" download={`${show.slug}.ics`}>
            {t("schedule.addToCalendar")}
          </a>{" "}
          <a href={calendarUrl.replace(/^https?:/, "webcal:")} className="button button--ghost">
            {t("schedule.subscribe")}
          </a>
        </p>
        <FollowShow show={show} timeZone={zone} {...following} />
      </header>
      <section className="section" aria-labelledby="show-when">
        <h2 id="show-when" className="section-title">
          {t("schedule.whenItAirs")}
        </h2>
        {rules.length === 0 ? (
          <p className="muted">{t("schedule.notScheduled")}</p>
        ) : (
          <ul>
            {rules.map((rule) => (
              <li key={rule.id}>{t("schedule.ruleInStationTime", { rule: describeSlot(rule, translator), zone: stationTimeZone })}</li>
            ))}
          </ul>
        )}
      </section>
      <section className="section" aria-labelledby="show-next">
        <h2 id="show-next" className="section-title">
          {t("schedule.nextAirings")}
        </h2>
        {airings.length === 0 ? (
          <p className="muted">{t("schedule.noAirings")}</p>
        ) : (
          <ol className="schedule-day__list">
            {airings.map((airing) => (
              <li key={`${airing.slotId}-${airing.originalStart}`} className="airing" style={{ borderColor: show.colour }}>
                <p className="airing__time">
                  {dayLabel(airing.start, zone, locale)} · <time dateTime={airing.start}>{timeIn(airing.start, zone, locale)}</time>–
                  <time dateTime={airing.end}>{timeIn(airing.end, zone, locale)}</time> {zoneAbbreviation(airing.start, zone, locale)}
                  {airing.moved && <span className="airing__note">{t("schedule.moved")}</span>}
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section className="section" aria-labelledby="show-episodes">
        <h2 id="show-episodes" className="section-title">
          {t("schedule.episodes")}
        </h2>
        {episodes.length === 0 ? (
          <p className="muted">{t("schedule.noEpisodes")}</p>
        ) : (
          <PodcastCardList episodes={episodes} label={t("schedule.episodesOf", { show: show.name })} />
        )}
      </section>
    </div>
  );
}
