import { Link, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useT } from "~/i18n/translate";
import { useLiveData } from "~/hooks/useRealtime";
import { dayUnlessToday, timeIn, useListenerTimeZone } from "~/utils/airing-format";

/** On now and up next, as the root loader sends them to every page (see getBarOnAir). */
export interface PlayerOnAirData {
  now: { slug: string; name: string; hosts: string; end: string; artwork: string | null } | null;
  next: { slug: string; name: string; start: string } | null;
}

/**
 * Keeps every page's on-air data current: the schedule's realtime changes and
 * the moment the current airing ends (or the next starts) re-run the loaders.
 * Mounted once, in the player bar, so /listen's ON AIR box follows it too.
 */
export function useOnAirRefresh({ now, next }: PlayerOnAirData) {
  const revalidator = useRevalidator();
  useLiveData("schedule:changed");
  const changeAt = Math.min(now ? Date.parse(now.end) : Infinity, next ? Date.parse(next.start) : Infinity);
  useEffect(() => {
    if (!Number.isFinite(changeAt)) return;
    const timer = window.setTimeout(() => revalidator.revalidate(), Math.min(Math.max(changeAt - Date.now() + 1000, 1000), 2_000_000_000));
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [changeAt]);
}

/** The bar's programme line: the show on air (hosts and next left out on phones). */
export function PlayerOnAir({ onAir, stationTimeZone }: { onAir: PlayerOnAirData; stationTimeZone: string }) {
  const { t, locale } = useT();
  const [zone] = useListenerTimeZone(stationTimeZone, null);
  const { now, next } = onAir;
  if (!now && !next) return null;
  // The next airing may be days away (nothing on air until Monday): a time alone would read as today's.
  const nextDay = next ? dayUnlessToday(next.start, zone, locale) : null;
  const nextTime = next ? timeIn(next.start, zone, locale) : "";
  return (
    <p className="live-player__show" data-testid="player-on-air">
      {now ? (
        <>
          <span className="live-player__show-label">{t("player.onNow")} </span>
          <Link to={`/shows/${now.slug}`}>{now.name}</Link>
          {now.hosts && <span className="live-player__show-extra"> {t("player.withHosts", { hosts: now.hosts })}</span>}
          <span> {t("player.until", { time: timeIn(now.end, zone, locale) })}</span>
          {next && (
            <span className="live-player__show-extra"> · {t("player.nextShow", { show: next.name, time: nextDay ? `${nextDay} ${nextTime}` : nextTime })}</span>
          )}
        </>
      ) : (
        next && (
          <>
            <span className="live-player__show-label">{t("player.upNext")} </span>
            <Link to={`/shows/${next.slug}`}>{next.name}</Link>
            <span> {nextDay ? t("player.atDay", { day: nextDay, time: nextTime }) : t("player.at", { time: nextTime })}</span>
          </>
        )
      )}
    </p>
  );
}
