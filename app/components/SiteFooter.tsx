import { Link } from "@remix-run/react";
import type { StationIdentity } from "~/services/config.server";
import { useT } from "~/i18n/translate";
import { publicLinks } from "~/utils/public-links";
import { LanguageSwitch } from "./LanguageSwitch";

export function SiteFooter({ station }: { station: StationIdentity }) {
  const { t } = useT();
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div className="site-footer__about">
          <p className="brand">{station.name}</p>
          <p>{station.tagline}</p>
          <p>
            © {new Date().getFullYear()} {station.name}
          </p>
        </div>
        <nav aria-label={t("common.footerNav")}>
          <ul className="site-footer__links">
            {publicLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{t(link.labelKey)}</Link>
              </li>
            ))}
            {/* Episodes kept on this device: found here and from each episode's download action. */}
            <li>
              <Link to="/downloads">{t("common.navDownloads")}</Link>
            </li>
          </ul>
        </nav>
        {station.socialLinks.length > 0 && (
          <nav aria-label={t("common.socialNav")}>
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
        {/* Also here, not only in the profile drawer: a plain form every page has, with or without JavaScript. */}
        <LanguageSwitch className="site-footer__language" />
      </div>
    </footer>
  );
}
