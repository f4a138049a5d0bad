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
import { cssBundleHref } from "@remix-run/css-bundle";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { PlayerBar } from "~/components/PlayerBar";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { getNowPlaying } from "~/models/now-playing.server";
import { getBarOnAir, type BarOnAir } from "~/models/schedule.server";
import { getStationIdentity } from "~/models/station.server";
import { isAdmin } from "~/services/admin-session.server";
import { getCurrentUser, isGoogleSignInConfigured } from "~/auth.server";
import { getConfig, type StationIdentity } from "~/services/config.server";
import { readTheme, type Theme } from "~/services/theme.server";
import { useNonce } from "~/utils/nonce";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, admin, theme] = await Promise.all([getCurrentUser(request), isAdmin(request), readTheme(request)]);
  return {
    station: getStationIdentity(),
    nowPlaying: getNowPlaying(),
    // Not worth an error page: without the programme the bar simply shows no show.
    onAir: await getBarOnAir(new Date()).catch((): BarOnAir => ({ now: null, next: null })),
    stationTimeZone: getConfig().stationTimezone,
    // Only the station's own stream is recorded (not the built-in demo), and only with REWIND_HOURS.
    canRewind: Boolean(getConfig().streamUrl) && getConfig().rewindHours > 0,
    user: user ? { name: user.name, favoriteEpisodeIds: user.favoriteEpisodeIds } : null,
    isAdmin: admin,
    theme,
    googleSignIn: isGoogleSignInConfigured(),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const station = data?.station;
  return station ? [{ title: station.name }, { name: "description", content: station.tagline }] : [];
};

function Document({ station, theme, children }: { station: StationIdentity | undefined; theme: Theme; children: ReactNode }) {
  const accent = station?.accentColor;
  const nonce = useNonce();
  return (
    <html lang="id" data-theme={theme} style={accent ? ({ "--accent": accent } as React.CSSProperties) : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {accent && <meta name="theme-color" content={accent} />}
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
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
    <Document station={station} theme={data?.theme ?? "dark"}>
      {station && <SiteHeader station={station} user={data.user} isAdmin={data.isAdmin} theme={data.theme} googleSignIn={data.googleSignIn} />}
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {station && <SiteFooter station={station} />}
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
        {notFound ? "Page not found" : unavailable ? "We'll be right back" : refused ? "That did not work" : "Something went wrong"}
      </h1>
      <p className="muted">
        {notFound
          ? "This page is off the air. It may have moved, or the link may be mistyped."
          : unavailable || refused
            ? String(error.data)
            : "We could not load this page. Please try again in a moment."}
      </p>
      <p>
        <Link className="button" to="/listen">
          Back to LISTEN
        </Link>
      </p>
    </section>
  );
}
