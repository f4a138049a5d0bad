import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { Theme } from "~/services/theme.server";
import type { MessageKey } from "~/i18n/keys";
import { useT } from "~/i18n/translate";
import { Drawer } from "./Drawer";
import { Icon } from "./Icon";

const themeChoices: { value: Theme; labelKey: MessageKey }[] = [
  { value: "dark", labelKey: "common.themeDark" },
  { value: "light", labelKey: "common.themeLight" },
  { value: "system", labelKey: "common.themeSystem" },
];

export function ProfileDrawer({
  open,
  onClose,
  closeHref,
  themeReturnTo,
  user,
  theme,
  googleSignIn,
  onAdminAccess,
  languageSwitch,
}: {
  open: boolean;
  onClose: () => void;
  closeHref: string;
  /** Where the theme switch comes back to (this page with the drawer still open). */
  themeReturnTo: string;
  user: { name: string } | null;
  theme: Theme;
  /** Google sign-in is offered only where the station configured it. */
  googleSignIn: boolean;
  /** The dropdown icon: opens the admin PIN dialog (without JavaScript, the PIN page). */
  onAdminAccess: () => void;
  /**
   * The language switch, coming back to this page with the drawer open. SiteHeader makes it: the
   * footer's is in the root's chunk, and importing it here too would make it a chunk of its own that
   * every page loads (/listen's first-load JavaScript budget, issue 14).
   */
  languageSwitch: ReactNode;
}) {
  const { t } = useT();
  const name = user?.name ?? t("common.guest");
  return (
    <Drawer id="profile-drawer" side="right" title={t("common.profileTitle")} open={open} onClose={onClose} closeHref={closeHref}>
      <div className="profile">
        <span className="profile__avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <p className="profile__name">{name}</p>
        <Link
          to="/pin?kind=admin"
          role="button"
          className="icon-button profile__pin"
          aria-label={t("common.adminAccessPin")}
          aria-haspopup="dialog"
          onClick={(event) => {
            event.preventDefault();
            onAdminAccess();
          }}
        >
          <Icon name="chevronDown" />
        </Link>
      </div>
      <ul className="drawer__links">
        <li>
          <Link to="/favorites" className="drawer__link">
            <Icon name="heart" /> {t("common.favoritePodcast")}
          </Link>
        </li>
        <li>
          {user ? (
            <Form method="post" action="/logout">
              <button type="submit" className="drawer__link drawer__link--button">
                <Icon name="user" /> {t("common.signOutCaps")}
              </button>
            </Form>
          ) : (
            <Link to="/login" className="drawer__link">
              <Icon name="user" /> {t(googleSignIn ? "common.registerWithGoogle" : "common.signInCaps")}
            </Link>
          )}
        </li>
        {user && (
          <li>
            {/* Ends the sessions on every device (a lost phone, a shared computer), not only this one. */}
            <Form method="post" action="/logout" onSubmit={onClose}>
              <input type="hidden" name="scope" value="everywhere" />
              <button type="submit" className="drawer__link drawer__link--button">
                <Icon name="user" /> {t("common.signOutEverywhereCaps")}
              </button>
            </Form>
          </li>
        )}
      </ul>
      <Form method="post" action="/theme" className="theme-switch" preventScrollReset>
        <input type="hidden" name="returnTo" value={themeReturnTo} />
        <fieldset>
          <legend className="theme-switch__legend">{t("common.theme")}</legend>
          <div className="theme-switch__options">
            {themeChoices.map((choice) => (
              <button key={choice.value} type="submit" name="theme" value={choice.value} className="theme-switch__option" aria-pressed={theme === choice.value}>
                {t(choice.labelKey)}
              </button>
            ))}
          </div>
        </fieldset>
      </Form>
      {languageSwitch}
    </Drawer>
  );
}
