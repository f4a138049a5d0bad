import { NavLink } from "@remix-run/react";
import { Drawer } from "./Drawer";
import type { publicLinks } from "~/utils/public-links";
import { useT } from "~/i18n/translate";

// Following a link closes the drawer: the header closes drawers on every navigation.
// The links come from the header (already loaded), so this lazily loaded drawer does not split them into a file of their own.
export function MenuDrawer({ open, onClose, closeHref, links }: { open: boolean; onClose: () => void; closeHref: string; links: typeof publicLinks }) {
  const { t } = useT();
  return (
    <Drawer id="menu-drawer" side="left" title={t("common.menuTitle")} open={open} onClose={onClose} closeHref={closeHref}>
      <nav aria-label={t("common.menuTitle")}>
        <ul className="drawer__links">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className="drawer__link" prefetch="intent">
                {t(link.labelKey)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </Drawer>
  );
}
