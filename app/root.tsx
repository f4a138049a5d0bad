import "@fontsource-variable/inter/wght.css";
import "./styles/tokens.css";
import "./styles/app.css";
import "./styles/listener.css";
import "./styles/player.css";
// Every page's CSS goes into one bundle whichever module imports it (cssBundleHref): imported here
// rather than beside the components, where each import left an empty JavaScript chunk to load.
import "./styles/forms.css";
import "./styles/schedule.css";
import "./styles/news.css";
import "./styles/episode-media.css";
import "./styles/episodes.css";
import "./styles/admin.css";
import "./styles/audience.css";
import "./styles/offline.css";
import { cssBundleHref } from "@remix-run/css-bundle";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AppUpdate } from "~/components/AppUpdate";
import { PlayerBar } from "~/components/PlayerBar";
import { RegisteredNotice } from "~/components/RegisteredNotice";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { getNowPlaying } from "~/models/now-playing.server";
import { getBarOnAir, type BarOnAir } from "~/models/schedule.server";
import { getStationIdentity } from "~/models/station.server";
import { getStaffSession } from "~/services/admin-session.server";
import { getCurrentUser, isGoogleSignInConfigured } from "~/auth.server";
import { getConfig, type StationIdentity } from "~/services/config.server";
import { readTheme, type Theme } from "~/services/theme.server";
import { useNonce } from "~/utils/nonce";
import { catalogUrl } from "~/i18n/catalogs.server";
import { LANGUAGE_PARAM, resolveLanguage } from "~/i18n/language.server";
import { LANGUAGES, type Language } from "~/i18n/languages";
import { useT } from "~/i18n/translate";
import { siteOrigin } from "~/models/site-origin.server";
import { stationSettingsSaved } from "~/models/station-settings.server";
import { roleMay } from "~/utils/staff-roles";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, admin, theme, origin] = await Promise.all([getCurrentUser(request), getStaffSession(request), readTheme(request), siteOrigin(request.url)]);
  const language = await resolveLanguage(request, user?.language);
  return {
    language,
    catalogUrl: catalogUrl(language),
    alternates: languageAlternates(origin, request),
    station: getStationIdentity(language),
    nowPlaying: getNowPlaying(),
    // Not worth an error page: without the programme the bar simply shows no show.
    onAir: await getBarOnAir(new Date()).catch((): BarOnAir => ({ now: null, next: null })),
    stationTimeZone: getConfig().stationTimezone,
    // The live stream (the station's own or the built-in demo) is recorded when REWIND_HOURS allows.
    canRewind: getConfig().rewindHours > 0,
    user: user ? { name: user.name, favoriteEpisodeIds: user.favoriteEpisodeIds } : null,
    staffRole: admin?.role ?? null,
    // A station whose settings were never saved invites its manager to them from every admin page.
    settingsPending: admin !== null && roleMay(admin.role, "station") && !stationSettingsSaved(),
    theme,
    googleSignIn: isGoogleSignInConfigured(),
  };
}

/**
 * This page in each language, for search engines (hreflang): `?lang=` picks one, and the bare
 * address (x-default) follows the visitor's browser.
 */
function languageAlternates(origin: string, request: Request): { hrefLang: string; href: string }[] {
  const url = new URL(request.url);
  url.searchParams.delete(LANGUAGE_PARAM);
  const page = (language?: Language) => {
    const params = new URLSearchParams(url.search);
    if (language) params.set(LANGUAGE_PARAM, language);
    const query = params.toString();
    return `${origin}${url.pathname}${query ? `?${query}` : ""}`;
  };
  return [...LANGUAGES.map((language) => ({ hrefLang: language, href: page(language) })), { hrefLang: "x-default", href: page() }];
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const station = data?.station;
  if (!station) return [];
  return [
    { title: station.name },
    { name: "description", content: station.tagline },
    ...data.alternates.map(({ hrefLang, href }) => ({ tagName: "link", rel: "alternate", hrefLang, href })),
  ];
};

function Document({
  station,
  theme,
  catalog,
  children,
}: {
  station: StationIdentity | undefined;
  theme: Theme;
  catalog: string | undefined;
  children: ReactNode;
}) {
  const accent = station?.accentColor;
  const nonce = useNonce();
  const { t, language } = useT();
  return (
    <html lang={language} data-theme={theme} style={accent ? ({ "--accent": accent } as React.CSSProperties) : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {accent && <meta name="theme-color" content={accent} />}
        {/* The page's messages (entry.client.tsx hydrates once they are here), fetched beside the scripts. */}
        {catalog && <link rel="preload" as="fetch" crossOrigin="anonymous" href={catalog} data-catalog="" />}
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {t("common.skipToContent")}
        </a>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const station = data?.station;
  return (
    <Document station={station} theme={data?.theme ?? "dark"} catalog={data?.catalogUrl}>
      {station && <SiteHeader station={station} user={data.user} staffRole={data.staffRole} theme={data.theme} googleSignIn={data.googleSignIn} />}
      <main id="main" tabIndex={-1}>
        <RegisteredNotice signedIn={Boolean(data?.user)} />
        {children}
      </main>
      {station && <SiteFooter station={station} />}
      {station && <AppUpdate />}
      {/* In the layout, not a route: live and episodes keep playing while the listener navigates. */}
      {station && (
        <PlayerBar
          station={station}
          signedIn={Boolean(data.user)}
          nowPlaying={data.nowPlaying}
          onAir={data.onAir}
          stationTimeZone={data.stationTimeZone}
          canRewind={data.canRewind}
        />
      )}
    </Document>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useT();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A 503 is the server's answer while the database is down (server/database-outage.ts), logged there.
  const unavailable = isRouteErrorResponse(error) && error.status === 503;
  // A request the server refused (400, 403, ...) says why in its body: show that, it is not a fault.
  const refused = isRouteErrorResponse(error) && error.status >= 400 && error.status < 500 && !notFound && typeof error.data === "string";
  if (!notFound && !unavailable && !refused) console.error(error);
  return (
    <section className="container section error-page" aria-labelledby="error-title">
      <p className="error-page__code" aria-hidden="true">
        {isRouteErrorResponse(error) ? error.status : 500}
      </p>
      <h1 id="error-title" className="page-title">
        {notFound ? t("common.notFoundTitle") : unavailable ? t("common.unavailableTitle") : refused ? t("common.refusedTitle") : t("common.errorTitle")}
      </h1>
      <p className="muted">{notFound ? t("common.notFoundText") : unavailable || refused ? String(error.data) : t("common.errorText")}</p>
      <p>
        <Link className="button" to="/listen">
          {t("common.backToListen")}
        </Link>
      </p>
    </section>
  );
}
