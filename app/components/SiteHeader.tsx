import { Form, Link, NavLink, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import type { StationIdentity } from "~/services/config.server";
import { Icon } from "./Icon";
import { MenuDrawer } from "./MenuDrawer";
import { adminLinks, publicLinks } from "./navigation";
import { PinDialog } from "./PinDialog";
import { ProfileDrawer } from "./ProfileDrawer";

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

type PinKind = "admin" | "public";

/** `?pin=admin|public` asks for the PIN dialog open on arrival (how guarded admin URLs land). */
function usePinFromUrl() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const value = searchParams.get("pin");
  const kind: PinKind | null = value === "admin" || value === "public" ? value : null;
  const rest = new URLSearchParams(searchParams);
  rest.delete("pin");
  rest.delete("redirectTo");
  const closeHref = location.pathname + (rest.size ? `?${rest}` : "");
  return {
    kind,
    redirectTo: searchParams.get("redirectTo") ?? undefined,
    closeHref,
    close: () => navigate(closeHref, { replace: true, preventScrollReset: true }),
  };
}

export function SiteHeader({ station, user, isAdmin }: { station: StationIdentity; user: { name: string } | null; isAdmin: boolean }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const [pinKind, setPinKind] = useState<PinKind | null>(null);
  const pinFromUrl = usePinFromUrl();

  return (
    <>
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
          <div className="site-header__actions">
            <button
              type="button"
              className="menu-toggle"
              aria-haspopup="dialog"
              aria-expanded={menuOpen}
              aria-controls="menu-drawer"
              onClick={() => setMenuOpen(true)}
            >
              <Icon name="menu" />
              <span>MENU</span>
            </button>
            <button
              type="button"
              className="icon-button profile-toggle"
              aria-label={`Profile: ${user?.name ?? "Guest"}`}
              aria-haspopup="dialog"
              aria-expanded={profileOpen}
              aria-controls="profile-drawer"
              onClick={() => setProfileOpen(true)}
            >
              <Icon name="user" />
            </button>
          </div>
        </div>
        {isAdmin && (
          <div className="admin-strip">
            <div className="container admin-strip__inner">
              <span className="admin-strip__badge">ADMIN</span>
              <nav aria-label="Admin">
                <ul>
                  {adminLinks.map((link) => (
                    <li key={link.to}>
                      <NavLink to={link.to} className="admin-strip__link">
                        {link.label}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </nav>
              <div className="admin-strip__actions">
                {/* A link without JavaScript, the dialog with it. */}
                <Link
                  to="/pin?kind=public"
                  className="button button--ghost admin-strip__action"
                  aria-haspopup="dialog"
                  onClick={(event) => {
                    event.preventDefault();
                    setPinKind("public");
                  }}
                >
                  Public site (PIN)
                </Link>
                <Form method="post" action="/pin">
                  <input type="hidden" name="intent" value="leave" />
                  <button type="submit" className="button button--ghost admin-strip__action">
                    Leave admin
                  </button>
                </Form>
              </div>
            </div>
          </div>
        )}
      </header>
      <MenuDrawer open={menuOpen} onClose={() => setMenuOpen(false)} />
      <ProfileDrawer
        open={profileOpen}
        onClose={() => setProfileOpen(false)}
        user={user}
        onAdminAccess={() => {
          setProfileOpen(false);
          setPinKind("admin");
        }}
      />
      {pinKind && !pinFromUrl.kind && <PinDialog key={pinKind} kind={pinKind} open onClose={() => setPinKind(null)} />}
      {pinFromUrl.kind && (
        <PinDialog
          key={`url-${pinFromUrl.kind}`}
          kind={pinFromUrl.kind}
          open
          redirectTo={pinFromUrl.redirectTo}
          onClose={pinFromUrl.close}
          closeHref={pinFromUrl.closeHref}
        />
      )}
    </>
  );
}
