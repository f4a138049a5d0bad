import { Link } from "@remix-run/react";
import type { StationIdentity } from "~/services/config.server";
import { publicLinks } from "~/utils/site-pages";

export function SiteFooter({ station }: { station: StationIdentity }) {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div>
          <p className="brand">{station.name}</p>
          <p>{station.tagline}</p>
          <p>
            © {new Date().getFullYear()} {station.name}
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="site-footer__links">
            {publicLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        {station.socialLinks.length > 0 && (
          <nav aria-label="Social">
            <ul className="site-footer__links">
              {station.socialLinks.map((link) => (
                <li key={link.url}>
                  <a href={link.url} rel="noopener noreferrer" target="_blank">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </footer>
  );
}
