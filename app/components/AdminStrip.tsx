import { Form, Link, NavLink } from "@remix-run/react";
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
  return (
    <div className="admin-strip">
      <div className="container admin-strip__inner">
        <span className="admin-strip__badge">{t("common.adminBadge")}</span>
        <nav aria-label={t("common.adminNav")}>
          <ul>
            {adminLinksFor(staffRole).map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="admin-strip__link">
                  {t(link.labelKey)}
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
              onPublicPin();
            }}
          >
            {t("common.publicSitePin")}
          </Link>
          <Form method="post" action="/pin">
            <input type="hidden" name="intent" value="leave" />
            <button type="submit" className="button button--ghost admin-strip__action">
              {t("common.leaveAdmin")}
            </button>
          </Form>
        </div>
      </div>
    </div>
  );
}
