import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { Icon } from "~/components/Icon";
import { useT } from "~/i18n/translate";
import { adminLinksFor } from "~/utils/site-pages";
import type { StaffRole } from "~/utils/staff-roles";

/**
 * The header's ADMIN strip while an admin session is open: the admin pages the role may open, the
 * public-site PIN and leaving the admin area. Only staff see it, so the browser loads it with the
 * header's dialogs (./header-dialogs, SiteHeader) rather than with every page.
 */
export function AdminStrip({ staffRole, onPublicPin }: { staffRole: StaffRole; onPublicPin: () => void }) {
  const { t } = useT();
  const list = useRef<HTMLUListElement>(null);
  const { pathname } = useLocation();
  // On a phone the links scroll sideways: bring the current one into the list's view
  // (scrollIntoView would move the page too).
  useEffect(() => {
    const reveal = () => {
      const current = list.current?.querySelector<HTMLElement>('[aria-current="page"]');
      if (list.current && current) revealInList(list.current, current);
    };
    reveal();
    // Again once the web font has set the links' widths.
    void document.fonts.ready.then(reveal);
  }, [pathname]);
  return (
    <div className="admin-strip">
      <div className="container admin-strip__inner">
        <span className="admin-strip__badge">{t("common.adminBadge")}</span>
        <nav aria-label={t("common.adminNav")} className="admin-strip__nav">
          <ul ref={list}>
            {adminLinksFor(staffRole).map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="admin-strip__link">
                  {t(link.labelKey)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        {/* The two ways out, outside the scrolling list; the lock and "PIN" say which one asks for it. */}
        <div className="admin-strip__actions">
          {/* A link without JavaScript, the dialog with it. */}
          <Link
            to="/pin?kind=public"
            className="button button--ghost admin-strip__action"
            aria-haspopup="dialog"
            title={t("common.publicSiteHint")}
            onClick={(event) => {
              event.preventDefault();
              onPublicPin();
            }}
          >
            <span className="admin-strip__label">{t("common.publicSite")}</span>{" "}
            <span className="admin-strip__pin">
              <Icon name="lock" size={14} />
              {t("common.pinLabel")}
            </span>
          </Link>
          <Form method="post" action="/pin">
            <input type="hidden" name="intent" value="leave" />
            <button type="submit" className="button button--ghost admin-strip__action" title={t("common.leaveAdminHint")}>
              <Icon name="leave" size={18} />
              <span className="admin-strip__label">{t("common.leaveAdmin")}</span>
            </button>
          </Form>
        </div>
      </div>
    </div>
  );
}

/** Scrolls the list sideways just enough to show the item whole, centred when it can be. */
function revealInList(list: HTMLElement, item: HTMLElement) {
  const left = item.getBoundingClientRect().left - list.getBoundingClientRect().left + list.scrollLeft;
  if (left >= list.scrollLeft && left + item.offsetWidth <= list.scrollLeft + list.clientWidth) return;
  list.scrollLeft = left - (list.clientWidth - item.offsetWidth) / 2;
}
