import { NavLink } from "@remix-run/react";
import { Drawer } from "./Drawer";
import { publicLinks } from "./navigation";

// Following a link closes the drawer: the header closes drawers on every navigation.
export function MenuDrawer({ open, onClose, closeHref }: { open: boolean; onClose: () => void; closeHref: string }) {
  return (
    <Drawer id="menu-drawer" side="left" title="Menu" open={open} onClose={onClose} closeHref={closeHref}>
      <nav aria-label="Menu">
        <ul className="drawer__links">
          {publicLinks.map((link) => (
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
