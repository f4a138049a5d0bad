import { NavLink } from "@remix-run/react";
import { Drawer } from "./Drawer";
import type { publicLinks } from "~/utils/site-pages";

// Following a link closes the drawer: the header closes drawers on every navigation.
// The links come from the header (already loaded), so this lazily loaded drawer does not split them into a file of their own.
export function MenuDrawer({ open, onClose, closeHref, links }: { open: boolean; onClose: () => void; closeHref: string; links: typeof publicLinks }) {
  return (
    <Drawer id="menu-drawer" side="left" title="Menu" open={open} onClose={onClose} closeHref={closeHref}>
      <nav aria-label="Menu">
        <ul className="drawer__links">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className="drawer__link" prefetch="intent">
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </Drawer>
  );
}
