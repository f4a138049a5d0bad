import { Link, Links, Meta, NavLink, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";

// The station's layout in outline: a header with seven navigation links, the page, a footer
// with the same links and a player bar. The words come from here, as data, not from JSX.
const SECTIONS = ["listen", "news", "events", "chartcontent", "crew", "history", "schedule"];
const WORDS = { station: "Station", signIn: "Sign in", copyright: "© Station", live: "Live" };

export function Icon({ name }: { name: string }) {
  return (
    <svg aria-hidden="true" width="16" height="16">
      <use href={`/icons.svg#${name}`} />
    </svg>
  );
}

export default function App() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <header>
          <Link to="/">{WORDS.station}</Link>
          <nav>
            <ul>
              {SECTIONS.map((section) => (
                <li key={section}>
                  <NavLink to={`/${section}`}>
                    <Icon name={section} />
                    {section}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <Link to="/login">{WORDS.signIn}</Link>
        </header>
        <Outlet />
        <footer>
          <nav>
            <ul>
              {SECTIONS.map((section) => (
                <li key={section}>
                  <Link to={`/${section}`}>{section}</Link>
                </li>
              ))}
            </ul>
          </nav>
          <p>{WORDS.copyright}</p>
        </footer>
        <div className="player">
          <button type="button" aria-label={WORDS.live}>
            <Icon name="play" />
          </button>
          <audio preload="none" />
          <span>{WORDS.live}</span>
        </div>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
