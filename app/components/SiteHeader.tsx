import { Link, NavLink, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useHeightVariable } from "~/hooks/useHeightVariable";
import type { StationIdentity } from "~/services/config.server";
import type { Theme } from "~/services/theme.server";
import { Icon } from "./Icon";
import { LanguageSwitch } from "./LanguageSwitch";
import * as serverRendered from "./header-dialogs.server";
import { useT } from "~/i18n/translate";
import { sameSitePath } from "~/utils/same-site-path";
import { publicLinks } from "~/utils/public-links";
import type { StaffRole } from "~/utils/staff-roles";

type Dialogs = typeof import("./header-dialogs");

/**
 * The drawers and the PIN dialog load the first time one opens: most page views open none; the
 * admin strip with them, on a staff member's page. The server renders one that the URL opens
 * (`?drawer=`, `?pin=`: how they work without JavaScript), and the admin strip, at once, from its
 * own copy; the browser keeps that markup until the code arrives, then hydrates it.
 */
function onDemand<Name extends keyof Dialogs>(name: Name) {
  return lazy<Dialogs[Name]>(() =>
    typeof document === "undefined"
      ? // Resolved on the spot, so the server never renders a fallback in its place.
        ({ then: (resolve: (module: { default: Dialogs[Name] }) => void) => resolve({ default: serverRendered[name] }) } as Promise<{ default: Dialogs[Name] }>)
      : import("./header-dialogs").then((module) => ({ default: module[name] })),
  );
}
const MenuDrawer = onDemand("MenuDrawer");
const ProfileDrawer = onDemand("ProfileDrawer");
const PinDialog = onDemand("PinDialog");
const AdminStrip = onDemand("AdminStrip");

export function StationBrand({ station }: { station: StationIdentity }) {
  const { t } = useT();
  return (
    <Link to="/listen" className="brand" aria-label={t("common.brandHome", { name: station.name })}>
      <span className="brand__mark">{station.logoUrl ? <img src={station.logoUrl} alt="" width={36} height={36} /> : <Icon name="radio" />}</span>
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
  const closeHref = sameSitePath(location.pathname) + (rest.size ? `?${rest}` : "");
  return {
    kind,
    redirectTo: searchParams.get("redirectTo") ?? undefined,
    closeHref,
    close: () => navigate(closeHref, { replace: true, preventScrollReset: true }),
  };
}

type DrawerName = "menu" | "profile";

/** `?drawer=menu|profile` renders a drawer open from the server: how the toggles work without JavaScript. */
function useDrawerFromUrl() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const value = searchParams.get("drawer");
  const open: DrawerName | null = value === "menu" || value === "profile" ? value : null;
  const rest = new URLSearchParams(searchParams);
  rest.delete("drawer");
  const closeHref = sameSitePath(location.pathname) + (rest.size ? `?${rest}` : "");
  const hrefWith = (name: DrawerName) => {
    const params = new URLSearchParams(rest);
    // Coming back to a drawer never reopens a PIN dialog the URL asked for.
    params.delete("pin");
    params.delete("redirectTo");
    params.set("drawer", name);
    return `${sameSitePath(location.pathname)}?${params}`;
  };
  return { open, closeHref, hrefWith, close: () => navigate(closeHref, { replace: true, preventScrollReset: true }) };
}

export function SiteHeader({
  station,
  user,
  staffRole,
  theme,
  googleSignIn,
}: {
  station: StationIdentity;
  user: { name: string } | null;
  /** The open admin session's role (null: no admin session); the strip lists what it may open. */
  staffRole: StaffRole | null;
  theme: Theme;
  googleSignIn: boolean;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const [pinKind, setPinKind] = useState<PinKind | null>(null);
  const pinFromUrl = usePinFromUrl();
  const drawerFromUrl = useDrawerFromUrl();
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useT();
  const header = useRef<HTMLElement>(null);
  // Its real height (the admin strip, wrapped links): focus stops below it (scroll-padding-top, app.css).
  useHeightVariable(header, "--header-offset");
  // The right PIN answers with a redirect; the navigation it causes is what closes the dialog
  // (and any drawer), so an admin never sees "Admin access" on top of the page it opened.
  useEffect(() => {
    setPinKind(null);
    setMenuOpen(false);
    setProfileOpen(false);
  }, [location.key]);
  const menuShown = menuOpen || drawerFromUrl.open === "menu";
  const profileShown = profileOpen || drawerFromUrl.open === "profile";
  const closeDrawer = (name: DrawerName) => {
    if (name === "menu") setMenuOpen(false);
    else setProfileOpen(false);
    if (drawerFromUrl.open === name) drawerFromUrl.close();
  };

  return (
    <>
      <header className="site-header" ref={header}>
        <div className="container site-header__inner">
          <StationBrand station={station} />
          <nav className="site-nav" aria-label={t("common.mainNav")}>
            <ul>
              {publicLinks.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} className="nav-link" prefetch="intent">
                    {t(link.labelKey)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="site-header__actions">
            {/* Links to the drawer without JavaScript, buttons with it. */}
            <Link
              to={drawerFromUrl.hrefWith("menu")}
              role="button"
              preventScrollReset
              className="menu-toggle"
              aria-haspopup="dialog"
              aria-expanded={menuShown}
              // The drawer is in the page only while open.
              aria-controls={menuShown ? "menu-drawer" : undefined}
              onClick={(event) => {
                event.preventDefault();
                setMenuOpen(true);
              }}
            >
              <Icon name="menu" />
              <span>{t("common.menuToggle")}</span>
            </Link>
            <Link
              to={drawerFromUrl.hrefWith("profile")}
              role="button"
              preventScrollReset
              className={`icon-button profile-toggle${user ? " profile-toggle--named" : ""}`}
              aria-label={t("common.profileToggle", { name: user?.name ?? t("common.guest") })}
              aria-haspopup="dialog"
              aria-expanded={profileShown}
              aria-controls={profileShown ? "profile-drawer" : undefined}
              onClick={(event) => {
                event.preventDefault();
                setProfileOpen(true);
              }}
            >
              <Icon name="user" />
              {/* Who is signed in, at a glance (wide screens; the label says it to screen readers). */}
              {user && <span className="profile-toggle__name">{user.name}</span>}
            </Link>
          </div>
        </div>
        {/* Staff only: its code loads on their page (the server's markup stays until it is here, then hydrates). */}
        <Suspense fallback={null}>{staffRole && <AdminStrip staffRole={staffRole} onPublicPin={() => setPinKind("public")} />}</Suspense>
      </header>
      <Suspense fallback={null}>
        {menuShown && <MenuDrawer open onClose={() => closeDrawer("menu")} closeHref={drawerFromUrl.closeHref} links={publicLinks} />}
      </Suspense>
      <Suspense fallback={null}>
        {profileShown && (
          <ProfileDrawer
            open
            onClose={() => closeDrawer("profile")}
            closeHref={drawerFromUrl.closeHref}
            themeReturnTo={drawerFromUrl.hrefWith("profile")}
            user={user}
            theme={theme}
            googleSignIn={googleSignIn}
            // Comes back to this page with the drawer open, as the theme switch does.
            languageSwitch={<LanguageSwitch className="profile__language" returnTo={drawerFromUrl.hrefWith("profile")} />}
            onAdminAccess={() => {
              // A drawer opened from the URL closes by navigating, which would also close a dialog held in
              // state: there the PIN dialog is asked for through the URL too.
              if (drawerFromUrl.open === "profile") {
                const params = new URLSearchParams(drawerFromUrl.closeHref.split("?")[1] ?? "");
                params.set("pin", "admin");
                navigate(`${sameSitePath(location.pathname)}?${params}`, { replace: true, preventScrollReset: true });
                return;
              }
              setProfileOpen(false);
              setPinKind("admin");
            }}
          />
        )}
      </Suspense>
      <Suspense fallback={null}>
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
      </Suspense>
    </>
  );
}
