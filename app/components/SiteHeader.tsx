import { Link, NavLink } from "@remix-run/react";
import type { StationIdentity } from "~/services/config.server";
import { Icon } from "./Icon";
import { publicLinks } from "./navigation";

export function StationBrand({ station }: { station: StationIdentity }) {
  return (
    <Link to="/listen" className="brand" aria-label={`${station.name} home`}>
      <span className="brand__mark">
        {station.logoUrl ? <img src={station.logoUrl} alt="" width={36} height={36} /> : <Icon name="radio" />}
      </span>
      <span>{station.name}</span>
    </Link>
  );
}

export function SiteHeader({ station }: { station: StationIdentity }) {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <StationBrand station={station} />
        <nav className="site-nav" aria-label="Main">
          <ul>
            {publicLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="nav-link" prefetch="intent">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
